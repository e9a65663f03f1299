package main

// On macOS `mew` alone opens the panel app.
const defaultCommand, defaultWhat = "app", "panel app"
