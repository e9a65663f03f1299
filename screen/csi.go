package screen

import "strconv"

// csiClamp caps the numbers in control sequences (ESC [ … final) before
// they reach the emulator. midterm does work in proportion to the counts a
// sequence names: "insert 1000 lines" grows the screen by 1000 rows and
// allocates each of them, every time (256 KiB of it took 21 s). A count
// larger than the screen means the same as the screen's size, so counts
// of rows are capped at the rows and counts of columns at the columns:
// the cost of a byte is then bounded by the screen's size. The emulator
// only reads; the person's terminal gets the agent's bytes untouched.
type csiClamp struct {
	phase int // 0 text, 1 after ESC, 2 in the parameters, 3 skipping an overlong one
	// rows and cols are the screen's size (set by the Emulator).
	rows, cols int
	// seq holds the parameter bytes read so far: which cap applies is
	// known only at the final byte.
	seq []byte
}

// maxParam caps the numbers that are not sizes (colours, modes): far
// above any real one.
const maxParam = 1000

// maxSeq bounds the parameter bytes of one sequence; a longer one is
// cancelled (CAN) and skipped to its final byte: no real sequence is near it.
const maxSeq = 64

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
				c.phase, c.seq = 2, c.seq[:0]
			case 0x1b:
			default:
				c.phase = 0
			}
		case 2:
			if len(c.seq) == 0 && b >= 0x3c && b <= 0x3f {
				// Private (< = > ?): its numbers name modes (?1049 is the
				// alternate screen), not sizes: left as they are.
				dst = append(dst, b)
				c.phase = 0
				continue
			}
			switch {
			case b >= 0x40 && b <= 0x7e: // the final byte
				dst = c.flush(dst, b)
				dst = append(dst, b)
				c.phase = 0
			case b == 0x1b || b == 0x18 || b == 0x1a: // cut off
				dst = c.flush(dst, 0)
				dst = append(dst, b)
				c.phase = 0
				if b == 0x1b {
					c.phase = 1
				}
			case len(c.seq) >= maxSeq:
				dst = append(dst, 0x18)
				c.phase = 3
			default:
				c.seq = append(c.seq, b)
			}
		case 3:
			switch {
			case b == 0x1b:
				c.phase = 1
				dst = append(dst, b)
			case b >= 0x40 && b <= 0x7e || b == 0x18 || b == 0x1a:
				c.phase = 0
			}
		}
	}
	return dst
}

// flush writes the sequence's parameters, each number capped by what the
// final byte makes of it (0: the sequence was cut off).
func (c *csiClamp) flush(dst []byte, final byte) []byte {
	rows, cols := max(c.rows, 1), max(c.cols, 1)
	first, rest := max(rows, cols), max(rows, cols)
	switch final {
	case 'L', 'M', 'S', 'T', 'A', 'B', 'E', 'F', 'd', 'e', 'r':
		first, rest = rows, rows
	case '@', 'P', 'X', 'C', 'D', 'G', '`', 'a', 'b', 'I', 'Z':
		first, rest = cols, cols
	case 'H', 'f':
		first, rest = rows, cols
	case 'm', 'h', 'l':
		first, rest = maxParam, maxParam
	}
	limit := first
	num, inNum := 0, false
	for _, b := range c.seq {
		if b >= '0' && b <= '9' {
			inNum = true
			if num <= maxParam {
				num = num*10 + int(b-'0')
			}
			continue
		}
		if inNum {
			dst = strconv.AppendInt(dst, int64(min(num, limit)), 10)
			num, inNum = 0, false
		}
		if b == ';' || b == ':' {
			limit = rest
		}
		dst = append(dst, b)
	}
	if inNum {
		dst = strconv.AppendInt(dst, int64(min(num, limit)), 10)
	}
	c.seq = c.seq[:0]
	return dst
}
