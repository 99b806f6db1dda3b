import Foundation
import Testing
@testable import ParallaxDatasets

/// `CSVRow` splits on the UTF-8 bytes: the same fields as a split by characters on the rows
/// datasets contain (EuRoC's bare commas, TUM-VI's blanks after them, tabs, empty fields).
@Suite struct CSVRowTests {
    @Test(arguments: [
        "1403636579758555392,-0.0990,0.1402,0.0361",
        "1520530308199447626, 0.1, -2e-3 ,\t4",
        ",, ,",
        "",
        "  spaced  ",
        "1,é,ü ,\tß",
        "trailing,",
    ])
    func splitsAsByCharacters(_ text: String) {
        let expected = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        }
        #expect(CSVRow(text, file: "imu0/data.csv", line: 3).fields.map(String.init) == expected)
    }

    @Test func numbersAndMessagesStillNameTheColumn() throws {
        let row = CSVRow("1520530308199447626, 0.25 ,x", file: "mav0/imu0/data.csv", line: 7)
        #expect(try row.timestamp(0) == 1_520_530_308_199_447_626)
        #expect(try row.double(1, "w_x") == 0.25)
        let error = try #require(throws: DatasetError.self) { try row.double(2, "w_y") }
        #expect(error.description.hasPrefix("mav0/imu0/data.csv:7: column 3 (w_y)"))
    }
}
