package assets

// Sprites are pixel art as text: one string a row, one character a pixel.
// '.' is transparent; F, S and W paint with the cat's coat (see Coat); every
// other character is a fixed colour from Ink. Cats face right; the board
// mirrors them to walk left. Each cat sprite is CatW×CatH with the feet on
// the last row.
const (
	CatW = 16
	CatH = 13
)

// Sprites by name. The board needs every name listed in SpriteNames.
var Sprites = map[string][]string{
	// Working: walking back and forth across the room, two steps.
	"walk1": {
		"................",
		"................",
		"................",
		"K.........K...K.",
		"KK.......KPK.KPK",
		".KK......KFFFFFK",
		"..K......KFEFEFK",
		"..KKKKKKKKWWPWWK",
		"..KFFSFFSFKWWWK.",
		"..KFFSFFSFFKKKK.",
		"..KFFFFFFFFFK...",
		"...KFK..KFK.....",
		"...KK...KK......",
	},
	"walk2": {
		"................",
		"................",
		"................",
		".........K...K..",
		"K.......KPK.KPK.",
		"KK......KFFFFFK.",
		".KKKKKKKKFEFEFK.",
		"..KFFSFFSKWWPWWK",
		"..KFFSFFSFKWWWK.",
		"..KFFFFFFFFKKKK.",
		"..KFFFFFFFFFK...",
		"..KFK.K..KFK.K..",
		"..KK..KK.KK..KK.",
	},
	// Done: sitting, eyes closed, content.
	"sit": {
		"................",
		"................",
		"................",
		"......K...K.....",
		".....KPK.KPK....",
		".....KFFFFFK....",
		".....KFKFKFK....",
		".....KWWPWWK....",
		"......KWWWK.....",
		".....KFFWFFK....",
		"....KFSFWFFSK...",
		"K...KFSFWFFSK...",
		".KKKKKFKWKFKK...",
	},
	"sit-tail": {
		"................",
		"................",
		"................",
		"......K...K.....",
		".....KPK.KPK....",
		".....KFFFFFK....",
		".....KFKFKFK....",
		".....KWWPWWK....",
		"......KWWWK.....",
		"K....KFFWFFK....",
		"K...KFSFWFFSK...",
		".K..KFSFWFFSK...",
		"..KKKKFKWKFKK...",
	},
	// Waiting: at the front of the room, facing you, eyes wide.
	"front": {
		"................",
		"................",
		"................",
		"....K.....K.....",
		"...KPK...KPK....",
		"...KFFKKKFFK....",
		"...KFFFFFFFK....",
		"...KFEEFEEFK....",
		"...KWWWPWWWK....",
		"....KWWWWWK.....",
		"...KFFWWWFFK....",
		"...KFFWWWFFK....",
		"...KKWKKKWKK....",
	},
	"front-blink": {
		"................",
		"................",
		"................",
		"....K.....K.....",
		"...KPK...KPK....",
		"...KFFKKKFFK....",
		"...KFFFFFFFK....",
		"...KFKKFKKFK....",
		"...KWWWPWWWK....",
		"....KWWWWWK.....",
		"...KFFWWWFFK....",
		"...KFFWWWFFK....",
		"...KKWKKKWKK....",
	},
	// Failed: flat on its side, eyes crossed out.
	"flop": {
		"................",
		"................",
		"................",
		"................",
		"................",
		"...KK...KK......",
		"..KWWK.KWWK.....",
		"..KFFK.KFFK.....",
		".KKFFKKKFFKKKKK.",
		"KFWWWWWWWWWKFFFK",
		".KFFSFFSFFSKXFXK",
		"..KFFSFFSFKFFPFK",
		"...KKKKKKKKPKKPK",
	},
	// Idle and exited: curled up asleep.
	"loaf": {
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"..........K...K.",
		"....KKKKKKPKKKPK",
		"...KFFSFFKFFFFFK",
		"..KFFSFFFKFKFKFK",
		"..KFFSFFFKWWPWWK",
		"KKKFFFFFFFKWWWK.",
		".KKKKKKKKKKKKKK.",
	},
	// A speech bubble over a waiting cat; the reason's mark goes inside.
	"bubble": {
		".kkkkkkkkkk.",
		"kwwwwwwwwwwk",
		"kwwwwwwwwwwk",
		"kwwwwwwwwwwk",
		"kwwwwwwwwwwk",
		"kwwwwwwwwwwk",
		"kwwwwwwwwwwk",
		"kwwwwwwwwwwk",
		"kwwwwwwwwwwk",
		"kwwwwwwwwwwk",
		".kkwwkkkkkk.",
		"..kwk.......",
		"..kk........",
	},
	// Marks inside the bubble, one per reason.
	"mark-permission": {
		"...kk..",
		"...kk..",
		"...kk..",
		"...kk..",
		"...kk..",
		".......",
		"...kk..",
	},
	"mark-question": {
		"..kkk..",
		".kk.kk.",
		"....kk.",
		"...kk..",
		"...kk..",
		".......",
		"...kk..",
	},
	"mark-plan": {
		"k.kkkk.",
		".......",
		"k.kkkk.",
		".......",
		"k.kkk..",
		".......",
	},
	"mark-input": {
		".......",
		".......",
		".......",
		".......",
		"kk.kk.k",
		".......",
	},
	"zz": {
		".....ZZZZZ",
		"........Z.",
		".......Z..",
		"......Z...",
		".....ZZZZZ",
		"ZZZZ......",
		"..Z.......",
		".Z........",
		"ZZZZ......",
	},
	"alarm": {
		"XX",
		"XX",
		"XX",
		"XX",
		"..",
		"XX",
	},
	// Room furniture.
	"window": {
		"cccccccccccc",
		"cbbbbbcbbbbc",
		"cbbbbbcbbyyc",
		"cbbbbbcbbyyc",
		"cbbbbbcbbbbc",
		"cccccccccccc",
		"cbbbbbcbbbbc",
		"cbbbbbcbbbbc",
		"cccccccccccc",
	},
	"window-night": {
		"mmmmmmmmmmmm",
		"mKKKKKmKKKKm",
		"mKKKKKmKKZZm",
		"mKKKKKmKKZZm",
		"mKKKKKmKKKKm",
		"mmmmmmmmmmmm",
		"mKKKKKmKKKKm",
		"mKKKKKmKKKKm",
		"mmmmmmmmmmmm",
	},
	"plant": {
		"..g.d..",
		".gdg.g.",
		"gdggdgd",
		".ggdgg.",
		"..ddd..",
		".nnnnn.",
		".nmmmn.",
		"..nnn..",
	},
	"cushion": {
		".rrrrrrrrrrrr.",
		"rrRrrrrrrrrRrr",
		".RRRRRRRRRRRR.",
	},
	"desk": {
		"....lllll.....",
		"....lssslL....",
		"....lssslL....",
		"....lllllL....",
		"mmmmmmmmmmmmmm",
		".n..........n.",
		".n..........n.",
		".n..........n.",
	},
}

// SpriteNames are the sprites the board draws.
var SpriteNames = []string{
	"walk1", "walk2", "sit", "sit-tail", "front", "front-blink", "flop", "loaf",
	"bubble", "mark-permission", "mark-question", "mark-plan", "mark-input",
	"zz", "alarm", "window", "window-night", "plant", "cushion", "desk",
}

// Paint is the colour a sprite character paints with in coat c: the coat's
// roles F, S and W, a fixed Ink colour, or nothing ('.', transparent, or a
// character the legend does not know).
func (c Coat) Paint(ch byte) (RGB, bool) {
	switch ch {
	case '.':
		return RGB{}, false
	case 'F':
		return c.Fur, true
	case 'S':
		return c.Shade, true
	case 'W':
		return c.W, true
	}
	ink, ok := Ink[ch]
	return ink, ok
}

// Crop trims the transparent rows and columns around a sprite.
func Crop(rows []string) []string {
	top, bottom, left, right := len(rows), -1, 1<<30, -1
	for r, row := range rows {
		for c := 0; c < len(row); c++ {
			if row[c] != '.' {
				top, bottom = min(top, r), max(bottom, r)
				left, right = min(left, c), max(right, c)
			}
		}
	}
	var out []string
	for r := top; r <= bottom; r++ {
		out = append(out, rows[r][left:right+1])
	}
	return out
}
