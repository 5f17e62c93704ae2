extension PNGFile {
    /// Why a PNG could not be read or written.
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// What kind of failure it was, for callers that treat them differently.
        public enum Kind: Hashable, Sendable {
            /// libpng refused the data: not a PNG, truncated, damaged, or a file it could not open.
            case unreadable
            /// The picture is larger than the reader was allowed to accept; nothing was allocated
            /// for its pixels.
            case tooLarge(width: Int, height: Int, maxPixels: Int)
            /// libpng could not write the picture (or the file could not be put in place).
            case unwritable
        }

        /// The file; empty for data in memory.
        public var path: String
        /// The kind of failure.
        public var kind: Kind
        /// libpng's message, or what went wrong around it.
        public var message: String

        /// Creates an error.
        public init(path: String, kind: Kind, message: String) {
            self.path = path
            self.kind = kind
            self.message = message
        }

        /// `PNG /tmp/x.png: Not a PNG file`, or `PNG data: …` for data in memory.
        public var description: String { "PNG \(path.isEmpty ? "data" : path): \(message)" }

        /// The refusal of a picture of `width` × `height` pixels over `maxPixels`.
        static func tooLarge(path: String, width: Int, height: Int, maxPixels: Int) -> Self {
            Self(
                path: path, kind: .tooLarge(width: width, height: height, maxPixels: maxPixels),
                message: "the picture is \(width)×\(height) pixels, more than the \(maxPixels) pixels allowed; "
                    + "send a smaller picture")
        }
    }
}
