import Foundation

/// Where JSON text stops being valid, as `line L, column C: reason`.
///
/// `JSONDecoder` on Linux reports only "The given data was not valid JSON." with no position;
/// `JSONSerialization` reports a character offset ("around character 13"), which is turned
/// here into the line and column a user can jump to.
enum JSONSyntaxError {
    /// A message for the first syntax error in `data`; a generic one when none is found.
    static func describe(_ data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            return position(in: data, detail: detail)
        }
        return "not valid JSON"
    }

    /// Rewrites "... around character N." as "line L, column C: ..."; an error at the end of the
    /// text gets the position of its last character.
    static func position(in data: Data, detail: String) -> String {
        let bytes = [UInt8](data)
        var offset: Int?
        if let range = detail.range(of: "around character ") {
            offset = Int(detail[range.upperBound...].prefix(while: \.isNumber))
        } else if detail.localizedCaseInsensitiveContains("end of file") || detail.localizedCaseInsensitiveContains("end of data") {
            offset = max(0, bytes.count - 1)
        }
        let reason = detail.components(separatedBy: " around character").first.map {
            $0.hasSuffix(".") ? String($0.dropLast()) : $0
        } ?? detail
        guard let offset, offset <= bytes.count else { return reason }
        let before = bytes[..<min(offset, bytes.count)]
        let line = before.filter { $0 == 0x0A }.count + 1
        let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        return "line \(line), column \(column): \(reason)"
    }
}
