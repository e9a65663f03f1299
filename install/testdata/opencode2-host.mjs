// A stand-in for OpenCode 2.x's plugin host, from its published shape (no
// OpenCode 2 runs here: npm stops at 1.18.33): a plugin module's default
// export must be { id, setup } (1.x plugins, a bare function or named
// exports, do not run: the host refuses them, as "V1 plugin
// implementations do not run in V2"); setup(ctx) gets ctx.event.subscribe,
// through which every event arrives as { type, data }; the host is one
// background server, so it outlives the events and keeps running.
//
// node opencode2-host.mjs PLUGIN < events.jsonl
import { pathToFileURL } from "node:url"
import { readFileSync } from "node:fs"

const mod = await import(pathToFileURL(process.argv[2]).href)
const plugin = mod.default
if (!plugin || typeof plugin !== "object" || typeof plugin.id !== "string" || typeof plugin.setup !== "function") {
  console.error("not a V2 plugin: the default export must be { id, setup }")
  process.exit(3)
}
const subscribers = []
const ctx = {
  directory: process.env.HOST_DIRECTORY ?? "/work/proj",
  event: {
    subscribe(fn) {
      subscribers.push(fn)
      return () => subscribers.splice(subscribers.indexOf(fn), 1)
    },
  },
}
await plugin.setup(ctx)
if (subscribers.length === 0) {
  console.error("the plugin subscribed to nothing")
  process.exit(4)
}
for (const line of readFileSync(0, "utf8").split("\n").filter(Boolean)) {
  const event = JSON.parse(line)
  for (const fn of [...subscribers]) await fn(event)
}
setInterval(() => {}, 1000)
