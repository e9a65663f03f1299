//go:build !linux && !darwin

package clock

func mono() int64 { return 0 }
