package screen

import "strconv"

// csiClamp caps the numbers in control sequences (ESC [ … final) before
// they reach the emulator: no screen has rows or columns in the thousands,
// and midterm allocates a row for every line a sequence like "insert 65535
// lines" names (48 MB, 130 ms). The emulator only reads; the person's
// terminal gets the agent's bytes untouched.
type csiClamp struct {
	phase int // 0 text, 1 after ESC, 2 in the parameters
	num   int
	inNum bool
	// private: the sequence starts with < = > or ?, and its numbers name
	// modes (?1049 is the alternate screen), not sizes: left as they are.
	private bool
	first   bool
}

// maxParam is far above any real screen's size.
const maxParam = 1000

func (c *csiClamp) clamp(dst, p []byte) []byte {
	for _, b := range p {
		switch c.phase {
		case 0:
			if b == 0x1b {
				c.phase = 1
			}
			dst = append(dst, b)
		case 1:
			dst = append(dst, b)
			switch b {
			case '[':
				c.phase, c.num, c.inNum, c.private, c.first = 2, 0, false, false, true
			case 0x1b:
			default:
				c.phase = 0
			}
		case 2:
			if c.first {
				c.first = false
				c.private = b >= 0x3c && b <= 0x3f
			}
			if b >= '0' && b <= '9' && !c.private {
				c.inNum = true
				if c.num <= maxParam {
					c.num = c.num*10 + int(b-'0')
				}
				continue
			}
			dst = c.flush(dst)
			dst = append(dst, b)
			if b >= 0x40 && b <= 0x7e || b == 0x1b || b == 0x18 || b == 0x1a {
				c.phase = 0 // final byte, or the sequence was cut off
				if b == 0x1b {
					c.phase = 1
				}
			}
		}
	}
	return dst
}

// flush writes the number read so far, capped.
func (c *csiClamp) flush(dst []byte) []byte {
	if !c.inNum {
		return dst
	}
	n := min(c.num, maxParam)
	c.num, c.inNum = 0, false
	return strconv.AppendInt(dst, int64(n), 10)
}
