package monitor

// SlowTick is Watch's re-check where exits come by event, for tests that
// tell an exit seen by event from one seen by a re-check.
const SlowTick = slowTick
