//go:build !linux && !darwin

package install

func exchange(a, b string) error { return errNoExchange }
