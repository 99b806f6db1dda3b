import ParallaxMath

/// A small 5×7 pixel bitmap font (designed for this project) for labels on
/// debug images and plots: digits, upper- and lower-case ASCII letters and
/// common punctuation. Characters without a glyph draw as a hollow box.
public enum BitmapFont {
    /// Glyph width in font pixels.
    public static let glyphWidth = 5
    /// Glyph height in font pixels.
    public static let glyphHeight = 7
    /// Horizontal distance between glyph origins (one blank column).
    public static let advance = 6
    /// Vertical distance between lines (two blank rows).
    public static let lineHeight = 9

    /// Each glyph as seven rows of five cells, `#` = ink, rows separated by spaces.
    static let art: [Character: String] = [
        "0": ".###. #...# #..## #.#.# ##..# #...# .###.", "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
        "2": ".###. #...# ....# ...#. ..#.. .#... #####", "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
        "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.", "5": "##### #.... ####. ....# ....# #...# .###.",
        "6": "..##. .#... #.... ####. #...# #...# .###.", "7": "##### ....# ...#. ..#.. .#... .#... .#...",
        "8": ".###. #...# #...# .###. #...# #...# .###.", "9": ".###. #...# #...# .#### ....# ...#. .##..",
        "A": ".###. #...# #...# ##### #...# #...# #...#", "B": "####. #...# #...# ####. #...# #...# ####.",
        "C": ".###. #...# #.... #.... #.... #...# .###.", "D": "###.. #..#. #...# #...# #...# #..#. ###..",
        "E": "##### #.... #.... ####. #.... #.... #####", "F": "##### #.... #.... ####. #.... #.... #....",
        "G": ".###. #...# #.... #.### #...# #...# .####", "H": "#...# #...# #...# ##### #...# #...# #...#",
        "I": ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.", "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
        "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#", "L": "#.... #.... #.... #.... #.... #.... #####",
        "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#", "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
        "O": ".###. #...# #...# #...# #...# #...# .###.", "P": "####. #...# #...# ####. #.... #.... #....",
        "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#", "R": "####. #...# #...# ####. #.#.. #..#. #...#",
        "S": ".#### #.... #.... .###. ....# ....# ####.", "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
        "U": "#...# #...# #...# #...# #...# #...# .###.", "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
        "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.", "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
        "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..", "Z": "##### ....# ...#. ..#.. .#... #.... #####",
        "a": "..... ..... .###. ....# .#### #...# .####", "b": "#.... #.... #.##. ##..# #...# #...# ####.",
        "c": "..... ..... .###. #.... #.... #...# .###.", "d": "....# ....# .##.# #..## #...# #...# .####",
        "e": "..... ..... .###. #...# ##### #.... .###.", "f": "..##. .#..# .#... ###.. .#... .#... .#...",
        "g": "..... .#### #...# #...# .#### ....# .###.", "h": "#.... #.... #.##. ##..# #...# #...# #...#",
        "i": "..#.. ..... .##.. ..#.. ..#.. ..#.. .###.", "j": "...#. ..... ..##. ...#. ...#. #..#. .##..",
        "k": "#.... #.... #..#. #.#.. ##... #.#.. #..#.", "l": ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
        "m": "..... ..... ##.#. #.#.# #.#.# #...# #...#", "n": "..... ..... #.##. ##..# #...# #...# #...#",
        "o": "..... ..... .###. #...# #...# #...# .###.", "p": "..... ..... ####. #...# ####. #.... #....",
        "q": "..... ..... .##.# #..## .#### ....# ....#", "r": "..... ..... #.##. ##..# #.... #.... #....",
        "s": "..... ..... .###. #.... .###. ....# ####.", "t": ".#... .#... ###.. .#... .#... .#..# ..##.",
        "u": "..... ..... #...# #...# #...# #..## .##.#", "v": "..... ..... #...# #...# #...# .#.#. ..#..",
        "w": "..... ..... #...# #...# #.#.# #.#.# .#.#.", "x": "..... ..... #...# .#.#. ..#.. .#.#. #...#",
        "y": "..... ..... #...# #...# .#### ....# .###.", "z": "..... ..... ##### ...#. ..#.. .#... #####",
        " ": "..... ..... ..... ..... ..... ..... .....", ".": "..... ..... ..... ..... ..... .##.. .##..",
        ",": "..... ..... ..... ..... .##.. ..#.. .#...", ":": "..... .##.. .##.. ..... .##.. .##.. .....",
        ";": "..... .##.. .##.. ..... .##.. ..#.. .#...", "-": "..... ..... ..... ##### ..... ..... .....",
        "+": "..... ..#.. ..#.. ##### ..#.. ..#.. .....", "=": "..... ..... ##### ..... ##### ..... .....",
        "_": "..... ..... ..... ..... ..... ..... #####", "/": "....# ....# ...#. ..#.. .#... #.... #....",
        "\\": "#.... #.... .#... ..#.. ...#. ....# ....#", "(": "...#. ..#.. .#... .#... .#... ..#.. ...#.",
        ")": ".#... ..#.. ...#. ...#. ...#. ..#.. .#...", "[": ".###. .#... .#... .#... .#... .#... .###.",
        "]": ".###. ...#. ...#. ...#. ...#. ...#. .###.", "%": "##... ##..# ...#. ..#.. .#... #..## ...##",
        "!": "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..", "?": ".###. #...# ....# ...#. ..#.. ..... ..#..",
        "'": "..#.. ..#.. .#... ..... ..... ..... .....", "\"": ".#.#. .#.#. ..... ..... ..... ..... .....",
        "#": ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.", "*": "..... ..#.. #.#.# .###. #.#.# ..#.. .....",
        "<": "...#. ..#.. .#... #.... .#... ..#.. ...#.", ">": ".#... ..#.. ...#. ....# ...#. ..#.. .#...",
        "|": "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..", "^": "..#.. .#.#. #...# ..... ..... ..... .....",
        "°": ".##.. #..#. #..#. .##.. ..... ..... .....", "~": "..... ..... .#... #.#.# ...#. ..... .....",
        "@": ".###. #...# #.### #.#.# #.### #.... .####", "&": ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#",
    ]

    /// Drawn for characters the font does not know.
    private static let unknownArt = "##### #...# #...# #...# #...# #...# #####"

    /// Parsed glyphs: seven row bit masks, bit 4 = leftmost column.
    private static let glyphs: [Character: [UInt8]] = art.mapValues(parse)
    private static let unknownGlyph: [UInt8] = parse(unknownArt)

    private static func parse(_ text: String) -> [UInt8] {
        text.split(separator: " ").map { row in
            row.reduce(UInt8(0)) { bits, cell in (bits << 1) | (cell == "#" ? 1 : 0) }
        }
    }

    /// Whether the font has a glyph for `character`.
    public static func hasGlyph(_ character: Character) -> Bool { glyphs[character] != nil }

    /// The seven row masks of `character` (bit 4 = leftmost column); a box for unknown characters.
    public static func glyph(for character: Character) -> [UInt8] { glyphs[character] ?? unknownGlyph }

    /// Size in image pixels of `text` drawn at `scale` (lines split at "\n").
    public static func measure(_ text: String, scale: Int = 1) -> (width: Int, height: Int) {
        let s = min(max(scale, 1), 1024)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let longest = lines.map(\.count).max() ?? 0
        let width = longest == 0 ? 0 : (longest * advance - 1) * s
        let height = (lines.count * lineHeight - (lineHeight - glyphHeight)) * s
        return (width, height)
    }
}

extension Image where Pixel == RGBA8 {
    /// Draws `text` with ``BitmapFont`` so that its top-left corner is at `origin`
    /// (rounded to whole pixels). Each font pixel becomes a `scale`×`scale`
    /// block; "\n" starts a new line. Text is clipped to the image.
    public mutating func drawText(_ text: String, at origin: Vector2, color: RGBA8, scale: Int = 1) {
        guard origin.x.isFinite, origin.y.isFinite else { return }
        drawText(text, x: safeInt(origin.x.rounded()), y: safeInt(origin.y.rounded()), color: color, scale: scale)
    }

    /// Draws `text` with its top-left corner at pixel `(x, y)`; see ``drawText(_:at:color:scale:)``.
    public mutating func drawText(_ text: String, x: Int, y: Int, color: RGBA8, scale: Int = 1) {
        let s = min(max(scale, 1), 1024)
        var penX = x, penY = y
        for character in text {
            if character == "\n" {
                penX = x
                penY += BitmapFont.lineHeight * s
                continue
            }
            if penX < width, penY < height, penX + BitmapFont.glyphWidth * s > 0, penY + BitmapFont.glyphHeight * s > 0 {
                let rows = BitmapFont.glyph(for: character)
                for (row, bits) in rows.enumerated() where bits != 0 {
                    for column in 0..<BitmapFont.glyphWidth where bits & (0x10 >> UInt8(column)) != 0 {
                        fillRect(x: penX + column * s, y: penY + row * s, width: s, height: s, color: color)
                    }
                }
            }
            penX += BitmapFont.advance * s
        }
    }
}
