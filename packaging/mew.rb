# Homebrew cask for Mew, the template: `make app` writes bin/app/mew.rb
# from it for the zip it built (bundle-check -cask: its SHA-256 in place of
# :no_check, the [ad-hoc: …] marker lines gone, and the caveats of its
# signing: an ad-hoc build keeps the block between the markers, a
# notarized one, written again by `make notarize`, drops it).
# Publish that file in a tap (a repository named homebrew-mew, under
# Casks/), then:
#   brew install --cask mew-dev/mew/mew
# packaging/bundle-check's tests keep the version, zip name and macOS floor
# here in step with Info.plist.
cask "mew" do
  version "0.1.0"
  sha256 :no_check

  url "https://github.com/mew-dev/mew/releases/download/v#{version}/Mew-#{version}.zip"
  name "Mew"
  desc "Menu-bar cats that show which coding-agent session needs you"
  homepage "https://github.com/mew-dev/mew"

  livecheck do
    url :url
    strategy :github_latest
  end

  # The symbol alone means this release or later (the ">=" string form prints a
  # deprecation warning on every upgrade).
  depends_on macos: :ventura

  app "Mew.app"
  # The same executable is the command line: mew status, mew install, ...
  binary "#{appdir}/Mew.app/Contents/MacOS/mew"
  # The hook, for agents set up by hand (mew install copies it to ~/.mew/bin).
  binary "#{appdir}/Mew.app/Contents/MacOS/mew-hook"

  uninstall quit: "dev.mew.Mew"

  # ~/.mew is left alone on purpose: the hook copy there is what Claude
  # Code's settings call. `mew uninstall` takes the hook out first.
  zap trash: [
    "~/Library/LaunchAgents/dev.mew.Mew.plist",
    "~/Library/Preferences/dev.mew.Mew.plist",
  ]

  caveats <<~EOS
    [ad-hoc: begin]
    This build of Mew is ad-hoc signed, not notarized, so after every
    install and every upgrade:
      1. macOS quarantines it again (Homebrew no longer has --no-quarantine):
         open it once from Finder and allow it under System Settings >
         Privacy & Security (Open Anyway), or run
           xattr -dr com.apple.quarantine "#{appdir}/Mew.app"
      2. macOS no longer lets it control your terminals (jumps and iTerm2
         answers fail with error -1743) while System Settings still shows
         the switch on. Reset the permission, then allow it at the prompt:
           tccutil reset AppleEvents dev.mew.Mew

    [ad-hoc: end]
    Run `mew install` to register Mew's hook with Claude Code, and
    `mew uninstall` before removing Mew to take it out again.
  EOS
end
