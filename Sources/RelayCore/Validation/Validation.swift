import Foundation

/// A model value that can list what is wrong with it.
public protocol Validatable {
    /// The broken rules, with field paths starting at `field`.
    func validationProblems(at field: String) -> [ValidationError]
}

extension Validatable {
    /// Throws every broken rule at once, or returns when the value is valid.
    public func validate(as field: String) throws(ValidationFailure) {
        let problems = validationProblems(at: field)
        if !problems.isEmpty { throw ValidationFailure(problems: problems) }
    }
}

/// Small checks shared by the model's validators.
struct Checks {
    private(set) var problems: [ValidationError] = []

    mutating func report(_ field: String, _ problem: ValidationError.Problem) {
        problems.append(ValidationError(field: field, problem: problem))
    }

    mutating func identifier(_ value: String, _ field: String) {
        if value.isEmpty { report(field, .empty) }
        text(value, field, limit: ModelLimits.identifierBytes)
    }

    mutating func optionalIdentifier(_ value: String, _ field: String) {
        text(value, field, limit: ModelLimits.identifierBytes)
    }

    mutating func text(_ value: String, _ field: String, limit: Int) {
        let bytes = value.utf8.count
        if bytes > limit { report(field, .tooLong(bytes: bytes, limit: limit)) }
    }

    mutating func count(_ count: Int, _ field: String, limit: Int) {
        if count > limit { report(field, .tooMany(count: count, limit: limit)) }
    }

    mutating func unique(_ identifiers: [String], _ field: String) {
        var seen = Set<String>()
        for identifier in identifiers where !seen.insert(identifier).inserted {
            report(field, .duplicateIdentifier(identifier))
        }
    }

    mutating func nonNegative(_ value: Int, _ field: String) {
        if value < 0 { report(field, .outOfRange(value: Double(value), range: 0...Double(Int32.max))) }
    }

    mutating func merge(_ other: [ValidationError]) {
        problems += other
    }
}

extension NotificationContent: Validatable {
    /// Checks lengths, counts and numbers against `ModelLimits`.
    public func validationProblems(at field: String) -> [ValidationError] {
        var checks = Checks()
        checks.text(title, "\(field).title", limit: ModelLimits.titleBytes)
        checks.text(subtitle, "\(field).subtitle", limit: ModelLimits.titleBytes)
        checks.text(body, "\(field).body", limit: ModelLimits.bodyBytes)
        if let badge { checks.nonNegative(badge, "\(field).badge") }
        if case .named(let name) = sound { checks.identifier(name, "\(field).sound") }
        if !userInfo.isEmpty {
            let bytes = (try? RelayJSON.encode(userInfo).count) ?? Int.max
            if bytes > ModelLimits.userInfoBytes {
                checks.report("\(field).userInfo", .tooLong(bytes: bytes, limit: ModelLimits.userInfoBytes))
            }
        }
        checks.optionalIdentifier(categoryIdentifier, "\(field).categoryIdentifier")
        checks.optionalIdentifier(threadIdentifier, "\(field).threadIdentifier")
        checks.count(attachments.count, "\(field).attachments", limit: ModelLimits.attachments)
        for (index, attachment) in attachments.enumerated() {
            checks.identifier(attachment.identifier, "\(field).attachments[\(index)].identifier")
            if attachment.url.isEmpty { checks.report("\(field).attachments[\(index)].url", .empty) }
            checks.text(attachment.url, "\(field).attachments[\(index)].url", limit: ModelLimits.urlBytes)
        }
        checks.unique(attachments.map(\.identifier), "\(field).attachments")
        checks.text(summaryArgument, "\(field).summaryArgument", limit: ModelLimits.titleBytes)
        checks.nonNegative(summaryArgumentCount, "\(field).summaryArgumentCount")
        return checks.problems
    }
}

extension NotificationRequest: Validatable {
    /// Checks the identifier, the content and the trigger.
    public func validationProblems(at field: String) -> [ValidationError] {
        var checks = Checks()
        checks.identifier(identifier, "\(field).identifier")
        checks.merge(content.validationProblems(at: "\(field).content"))
        if let trigger {
            checks.merge(TriggerValidation.problems(of: trigger, field: "\(field).trigger"))
        }
        return checks.problems
    }
}

/// The rules for triggers, shared by requests and schedules.
enum TriggerValidation {
    static func problems(of trigger: NotificationTrigger, field: String) -> [ValidationError] {
        var checks = Checks()
        switch trigger {
        case .push:
            break
        case .timeInterval(let seconds, let repeats):
            if !seconds.isFinite || seconds <= 0 {
                checks.report("\(field).seconds", .notPositive(seconds))
            } else if repeats && seconds < ModelLimits.minimumRepeatInterval {
                checks.report("\(field).seconds", .repeatIntervalTooShort(seconds: seconds))
            } else if seconds > ModelLimits.maximumTimeInterval {
                checks.report(
                    "\(field).seconds",
                    .outOfRange(value: seconds, range: 1...ModelLimits.maximumTimeInterval))
            }
        case .calendar(let components, _):
            if components.isEmpty { checks.report("\(field).components", .empty) }
            for (name, value, range) in components.fields {
                if let value, !range.contains(value) {
                    checks.report(
                        "\(field).components.\(name)",
                        .outOfRange(value: Double(value), range: Double(range.lowerBound)...Double(range.upperBound)))
                }
            }
            if let reason = components.impossibleDay {
                checks.report("\(field).components", .impossibleDate(reason))
            }
        case .location(let region, _):
            checks.identifier(region.identifier, "\(field).region.identifier")
            if !(-90...90).contains(region.latitude) {
                checks.report("\(field).region.latitude", .outOfRange(value: region.latitude, range: -90...90))
            }
            if !(-180...180).contains(region.longitude) {
                checks.report("\(field).region.longitude", .outOfRange(value: region.longitude, range: -180...180))
            }
            if !region.radius.isFinite || region.radius <= 0 {
                checks.report("\(field).region.radius", .notPositive(region.radius))
            }
        }
        return checks.problems
    }
}

extension NotificationCategory: Validatable {
    /// Checks identifiers (unique, not reserved), counts and text lengths.
    public func validationProblems(at field: String) -> [ValidationError] {
        var checks = Checks()
        checks.identifier(identifier, "\(field).identifier")
        checks.count(actions.count, "\(field).actions", limit: ModelLimits.actionsPerCategory)
        for (index, action) in actions.enumerated() {
            let path = "\(field).actions[\(index)]"
            checks.identifier(action.identifier, "\(path).identifier")
            checks.text(action.identifier, "\(path).identifier", limit: ModelLimits.actionIdentifierBytes)
            if action.identifier == ResponseAction.defaultIdentifier
                || action.identifier == ResponseAction.dismissIdentifier
            {
                checks.report("\(path).identifier", .reservedIdentifier(action.identifier))
            }
            if action.title.isEmpty { checks.report("\(path).title", .empty) }
            checks.text(action.title, "\(path).title", limit: ModelLimits.actionTextBytes)
            if let input = action.textInput {
                checks.text(input.buttonTitle, "\(path).textInput.buttonTitle", limit: ModelLimits.actionTextBytes)
                checks.text(input.placeholder, "\(path).textInput.placeholder", limit: ModelLimits.actionTextBytes)
                checks.count(
                    input.suggestedReplies.count, "\(path).textInput.suggestedReplies",
                    limit: ModelLimits.suggestedReplies)
                for (replyIndex, reply) in input.suggestedReplies.enumerated() {
                    let replyPath = "\(path).textInput.suggestedReplies[\(replyIndex)]"
                    if reply.isEmpty { checks.report(replyPath, .empty) }
                    checks.text(reply, replyPath, limit: ModelLimits.actionTextBytes)
                }
            }
        }
        checks.unique(actions.map(\.identifier), "\(field).actions")
        for (name, text) in [
            ("hiddenPreviewsBodyPlaceholder", hiddenPreviewsBodyPlaceholder),
            ("categorySummaryFormat", categorySummaryFormat),
        ] {
            for form in text?.allForms ?? [] {
                checks.text(form, "\(field).\(name)", limit: ModelLimits.placeholderBytes)
            }
        }
        return checks.problems
    }
}

extension NotificationResponse {
    /// The broken rules of this response to a notification of `category` (`nil` when the
    /// notification has none): the action must exist and text must fit the action.
    public func validationProblems(against category: NotificationCategory?, at field: String) -> [ValidationError] {
        var checks = Checks()
        checks.identifier(notificationIdentifier, "\(field).notificationIdentifier")
        switch action {
        case .default, .dismiss:
            if userText != nil { checks.report("\(field).userText", .unexpectedText(action: action.identifier)) }
        case .custom(let identifier):
            guard let declared = category?.action(withIdentifier: identifier) else {
                checks.report("\(field).action", .unknownAction(identifier))
                break
            }
            if userText != nil && declared.textInput == nil {
                checks.report("\(field).userText", .unexpectedText(action: identifier))
            }
        }
        if let userText { checks.text(userText, "\(field).userText", limit: ModelLimits.userTextBytes) }
        return checks.problems
    }

    /// Throws every broken rule of this response to a notification of `category`.
    public func validate(against category: NotificationCategory?, as field: String) throws(ValidationFailure) {
        let problems = validationProblems(against: category, at: field)
        if !problems.isEmpty { throw ValidationFailure(problems: problems) }
    }
}
