import ArgumentParser
import Foundation
import RelayCore

/// `relayctl categories [FILE]`: sets an app's categories from a JSON file, or lists them.
struct CategoriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categories",
        abstract: "Set an app's notification categories from a JSON FILE (an array of categories, or one), or list them.",
        discussion: """
            A category (Docs/MODEL.md) names the actions notifications of it offer, text input \
            included. Setting replaces all of the app's categories; notifications already delivered \
            keep their actions. Without FILE, lists the app's categories: identifier and actions.
            """)

    @OptionGroup var app: AppOptions

    @Argument(help: "The JSON file to set the categories from (- for standard input); leave out to list them.")
    var file: String?

    @Flag(help: "Print JSON: the categories as relay-phone has them.")
    var json = false

    func run() async throws {
        let listed = try await app.withClient { client in
            if let file {
                let categories = try Self.read(file)
                let text = String(decoding: try RelayJSON.encode(categories), as: UTF8.self)
                _ = try await client.call("SetCategories", [.string(app.appID), .string(text)])
            }
            return try await client.string("GetCategories", [.string(app.appID)])
        }
        if json {
            print(listed)
            return
        }
        let categories = (try? RelayJSON.decode([NotificationCategory].self, from: Data(listed.utf8))) ?? []
        if categories.isEmpty { print("\(app.appID) has no categories") }
        for category in categories {
            let actions = category.actions.map { "\($0.identifier)=\($0.title)" + ($0.textInput == nil ? "" : " (text)") }
            print("\(category.identifier)\t[\(actions.joined(separator: ", "))]")
        }
    }

    /// A file of one category or an array of them.
    private static func read(_ file: String) throws -> [NotificationCategory] {
        let data = try JSONInput.read(file)
        do {
            if (try? JSONDecoder().decode(JSONValue.self, from: data))?.objectValue != nil {
                return [try RelayJSON.decode(NotificationCategory.self, from: data)]
            }
            return try RelayJSON.decode([NotificationCategory].self, from: data)
        } catch let error as DecodingError {
            throw RelayCtlError("\(file): \(DecodingErrorText.describe(error)); Docs/MODEL.md describes a category's JSON")
        }
    }
}
