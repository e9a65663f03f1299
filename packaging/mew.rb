# Homebrew cask for Mew. Publish it in a tap (a repository named
# homebrew-mew with this file under Casks/), then:
#   brew install --cask mew-dev/mew/mew
# `make app` on a Mac builds bin/Mew-<version>.zip and prints its SHA-256;
# attach the zip to the GitHub release v<version> and put the checksum
# below in place of :no_check. packaging/bundle-check's tests keep the
# version, zip name and macOS floor here in step with Info.plist.
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

  depends_on macos: ">= :ventura"

  app "Mew.app"
  # The same executable is the command line: mew status, mew install, ...
  binary "#{appdir}/Mew.app/Contents/MacOS/mew"

  uninstall quit: "dev.mew.Mew"

  # ~/.mew is left alone on purpose: the hook copy there is what Claude
  # Code's settings call. `mew uninstall` takes the hook out first.
  zap trash: [
    "~/Library/LaunchAgents/dev.mew.Mew.plist",
    "~/Library/Preferences/dev.mew.Mew.plist",
  ]

  caveats <<~EOS
    Mew is ad-hoc signed, not notarized. If macOS refuses to open it,
    allow it once under System Settings > Privacy & Security (Open Anyway),
    or run: xattr -dr com.apple.quarantine "#{appdir}/Mew.app"

    Run `mew install` to register Mew's hook with Claude Code, and
    `mew uninstall` before removing Mew to take it out again.
  EOS
end
