import ParallaxMath
import Testing

@testable import ParallaxImaging

@Suite struct BitmapFontTests {
    @Test func everyGlyphIsSevenRowsOfFive() {
        for (character, art) in BitmapFont.art {
            let rows = art.split(separator: " ")
            #expect(rows.count == 7, "\(character)")
            #expect(rows.allSatisfy { $0.count == 5 && $0.allSatisfy { $0 == "#" || $0 == "." } }, "\(character)")
        }
    }

    @Test func coversDigitsLettersAndPunctuation() {
        let required = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz .,:;-+=_/()[]%!?'\"#*<>|"
        for character in required { #expect(BitmapFont.hasGlyph(character), "\(character)") }
        #expect(!BitmapFont.hasGlyph("€"))
    }

    @Test func glyphsAreDistinct() {
        var seen: [[UInt8]: Character] = [:]
        for character in BitmapFont.art.keys.sorted() where character != " " {
            let glyph = BitmapFont.glyph(for: character)
            #expect(seen[glyph] == nil, "\(character) looks like \(seen[glyph].map(String.init) ?? "")")
            seen[glyph] = character
        }
    }

    @Test func drawsTheGlyphBitsAtScale() {
        var image = RGBAImage(width: 12, height: 16, fill: .black)
        image.drawText("1", at: Vector2(1, 1), color: .white, scale: 2)
        let one = BitmapFont.glyph(for: "1")
        for row in 0..<7 {
            for column in 0..<5 {
                let ink = one[row] & (0x10 >> UInt8(column)) != 0
                for dy in 0..<2 {
                    for dx in 0..<2 {
                        let pixel = image[1 + column * 2 + dx, 1 + row * 2 + dy]
                        #expect(pixel == (ink ? .white : .black), "row \(row) column \(column)")
                    }
                }
            }
        }
        // The "1" has a full-width base: bottom row of the glyph is ".###.".
        #expect(image[1, 13] == .black && image[3, 13] == .white && image[7, 14] == .white && image[9, 13] == .black)
    }

    @Test func advancesAndBreaksLines() {
        var image = RGBAImage(width: 40, height: 20, fill: .black)
        image.drawText("L\nL", x: 0, y: 0, color: .red)
        // "L": left column inked on all 7 rows, bottom row full.
        for y in 0..<7 { #expect(image[0, y] == .red) }
        for y in 9..<16 { #expect(image[0, y] == .red) }
        #expect(image[0, 7] == .black && image[0, 8] == .black)
        var row = RGBAImage(width: 40, height: 8, fill: .black)
        row.drawText("II", x: 0, y: 0, color: .red)
        // Second "I" starts at x = advance; its top bar spans columns 1…3 of its cell.
        #expect(row[7, 0] == .red && row[9, 0] == .red && row[6, 0] == .black && row[10, 0] == .black)
        #expect(BitmapFont.measure("II") == (11, 7))
        #expect(BitmapFont.measure("ab\nc", scale: 2) == (22, 32))
    }

    @Test func unknownCharactersDrawABox() {
        var image = RGBAImage(width: 6, height: 8, fill: .black)
        image.drawText("€", x: 0, y: 0, color: .white)
        #expect(image[0, 0] == .white && image[4, 6] == .white && image[2, 3] == .black)
    }
}
