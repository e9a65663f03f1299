package screen

import "time"

// SweepEvery is how often a screen is read and classified, by the tmux
// source and by `mew run` alike: never per write, because an agent's
// output comes in bursts and a half-drawn screen is not a state (`mew run`
// also reads a burst's end while a prompt is shown: screen/run's onOutput).
const SweepEvery = 700 * time.Millisecond
