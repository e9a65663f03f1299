// Package clock reads the machine's monotonic clock, shared by every
// process: a wall clock can step (NTP, a person setting the time, a VM
// resumed), this one cannot, so readings taken by the hook and by the
// monitor order correctly whatever the wall clock did in between. (Go's
// own monotonic readings in time.Time count from the process's start and
// cannot be compared across processes.)
package clock

// Mono is nanoseconds on the machine's monotonic clock, including time
// asleep; 0 when it cannot be read. Readings from different boots do not
// compare (a reboot ends every session anyway).
func Mono() int64 { return mono() }
