import Foundation
import Testing

/// An instant from an ISO 8601 string; tests state every time they use.
func instant(_ text: String) throws -> Date {
    try Date(text, strategy: .iso8601)
}

/// A time zone by identifier; fails the test when tzdata lacks it.
func zone(_ identifier: String) throws -> TimeZone {
    try #require(TimeZone(identifier: identifier), "time zone \(identifier) missing: install tzdata")
}

/// ISO 8601 text of an instant, for readable failure messages.
func iso(_ date: Date?) -> String {
    date.map { $0.formatted(.iso8601) } ?? "nil"
}
