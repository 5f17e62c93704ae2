/// One broken rule of the model, naming the field it concerns.
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Hashable {
        /// The field must not be empty.
        case empty
        /// The text is longer than the limit, in UTF-8 bytes.
        case tooLong(bytes: Int, limit: Int)
        /// The list has more entries than the limit.
        case tooMany(count: Int, limit: Int)
        /// Two entries share an identifier.
        case duplicateIdentifier(String)
        /// The identifier is reserved for the default or dismiss response.
        case reservedIdentifier(String)
        /// A repeating time interval is shorter than a minute.
        case repeatIntervalTooShort(seconds: Double)
        /// The number must be above zero (and finite).
        case notPositive(Double)
        /// The number is outside the allowed range.
        case outOfRange(value: Double, range: ClosedRange<Double>)
        /// The calendar components can never match.
        case impossibleDate(String)
        /// The response names an action the category does not have.
        case unknownAction(String)
        /// Text came with an action that does not ask for any.
        case unexpectedText(action: String)
    }

    /// The path of the field, such as `request.content.title` or `category.actions[1].identifier`.
    public var field: String
    /// What is wrong with it.
    public var problem: Problem

    /// Creates an error.
    public init(field: String, problem: Problem) {
        self.field = field
        self.problem = problem
    }

    /// A message for people: the field, what is wrong, and what is allowed.
    public var description: String {
        switch problem {
        case .empty:
            return "\(field) is empty; give it a value"
        case .tooLong(let bytes, let limit):
            return "\(field) is \(bytes) bytes long; the limit is \(limit) bytes (UTF-8)"
        case .tooMany(let count, let limit):
            return "\(field) has \(count) entries; the limit is \(limit)"
        case .duplicateIdentifier(let identifier):
            return "\(field) uses the identifier '\(identifier)' more than once; identifiers must be unique"
        case .reservedIdentifier(let identifier):
            return "\(field) is '\(identifier)', which is reserved for the \(identifier) response; choose another identifier"
        case .repeatIntervalTooShort(let seconds):
            return "\(field) repeats every \(Self.format(seconds)) s; a repeating interval must be at least 60 s"
        case .notPositive(let value):
            return "\(field) is \(Self.format(value)); it must be a finite number above 0"
        case .outOfRange(let value, let range):
            return "\(field) is \(Self.format(value)); allowed: \(Self.format(range.lowerBound))...\(Self.format(range.upperBound))"
        case .impossibleDate(let reason):
            return "\(field) can never fire: \(reason)"
        case .unknownAction(let identifier):
            return "\(field) names the action '\(identifier)', which the notification's category does not have"
        case .unexpectedText(let action):
            return "\(field) carries text, but the action '\(action)' does not ask for text input"
        }
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Everything wrong with a value, so that a user can fix it in one go.
public struct ValidationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broken rules, in field order.
    public var problems: [ValidationError]

    /// Creates a failure from its problems.
    public init(problems: [ValidationError]) {
        self.problems = problems
    }

    /// One line per problem.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
