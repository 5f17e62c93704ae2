import RelayCore

extension UIStateMachine {
    /// What a key does on the current screen.
    mutating func press(_ key: UIKey) -> [UIAction] {
        switch state.screen {
        case .idle:
            // Up opens the controls (do not disturb, mutes); Down and Select the notifications.
            if key == .up {
                push(.controls(selection: 0))
            } else if key != .back, !state.notifications.isEmpty {
                push(.list(selection: 0))
            }
        case .controls(let selection):
            let rows = state.controlRows
            switch key {
            case .up, .down:
                state.screen = .controls(selection: step(selection, key, count: rows.count))
            case .select:
                guard rows.indices.contains(selection) else { break }
                switch rows[selection] {
                case .doNotDisturb(let current):
                    // The toggle is the manual do not disturb: on over quiet hours, off only for
                    // the manual one (quiet hours end by their own time).
                    return [.setDoNotDisturb(current?.source != .manual)]
                case .unmute(let mute):
                    return [.unmute(mute.scope)]
                }
            case .back:
                pop()
            }
        case .muteMenu(let identifier, let selection):
            guard let notification = state.notification(identifier) else { break }
            let choices = state.muteChoices(of: notification)
            switch key {
            case .up, .down:
                state.screen = .muteMenu(identifier: identifier, selection: step(selection, key, count: choices.count))
            case .select:
                guard choices.indices.contains(selection) else { break }
                pop()
                // The notification stays: muting silences what comes next, not what is here.
                return switch choices[selection] {
                case .app(let duration): [.mute(state.muteScope(of: notification, thread: false), duration)]
                case .thread: [.mute(state.muteScope(of: notification, thread: true), .always)]
                }
            case .back:
                pop()
            }
        case .shortLook(let identifier, _):
            switch key {
            case .select: openLongLook(identifier, replacingCurrent: true)
            case .back: pop()
            case .up, .down: break
            }
        case .list(let selection):
            let groups = state.groups
            switch key {
            case .up, .down:
                state.screen = .list(selection: step(selection, key, count: groups.count))
            case .select:
                guard groups.indices.contains(selection) else { break }
                let group = groups[selection]
                if group.notifications.count == 1 || group.thread.isEmpty {
                    openLongLook(group.notifications[0].identifier, replacingCurrent: false)
                } else {
                    push(.thread(identifier: group.thread, selection: 0))
                }
            case .back:
                pop()
            }
        case .thread(let thread, let selection):
            let members = state.groups.first { $0.thread == thread }?.notifications ?? []
            switch key {
            case .up, .down:
                state.screen = .thread(identifier: thread, selection: step(selection, key, count: members.count))
            case .select:
                if members.indices.contains(selection) { openLongLook(members[selection].identifier, replacingCurrent: false) }
            case .back:
                pop()
            }
        case .longLook(let position):
            return pressOnLongLook(key, position)
        case .textReply(let identifier, let action, let selection):
            let replies = replies(identifier, action)
            switch key {
            case .up, .down:
                state.screen = .textReply(identifier: identifier, action: action, selection: step(selection, key, count: replies.count))
            case .select:
                guard replies.indices.contains(selection) else { break }
                let reply = response(identifier, .custom(action), text: replies[selection])
                remove(identifier)
                return [reply]
            case .back:
                pop()
            }
        case .pairing(var position):
            guard !position.answered else { break }
            switch key {
            case .up, .down:
                position.confirmFocused.toggle()
                state.screen = .pairing(position)
            case .select:
                position.answered = true
                state.screen = .pairing(position)
                return [.confirmPairing(position.confirmFocused, code: position.code)]
            case .back:
                position.answered = true
                state.screen = .pairing(position)
                return [.confirmPairing(false, code: position.code)]
            }
        }
        return []
    }

    /// The long look scrolls while there is text below; once its first button is in view, Down
    /// and Up move the focus between the buttons instead.
    private mutating func pressOnLongLook(_ key: UIKey, _ position: LongLookPosition) -> [UIAction] {
        guard let notification = state.notification(position.identifier) else { return [] }
        let geometry = measurer.longLookGeometry(notification, state: state)
        let buttons = state.buttons(of: notification)
        var position = position
        switch key {
        case .down:
            if let focus = position.focus {
                position.focus = min(focus + 1, buttons.count - 1)
            } else if geometry.isFullyVisible(button: 0, scroll: position.scroll) {
                position.focus = 0
            } else {
                position.scroll = geometry.scrolledDown(from: position.scroll)
            }
        case .up:
            if let focus = position.focus {
                position.focus = focus > 0 ? focus - 1 : nil
            } else {
                position.scroll = geometry.scrolledUp(from: position.scroll)
            }
        case .select:
            guard let focus = position.focus, buttons.indices.contains(focus) else {
                // Reading, Select jumps to the buttons: the quickest way to act.
                position.focus = 0
                break
            }
            switch buttons[focus] {
            case .mute:
                push(.muteMenu(identifier: notification.identifier, selection: 0))
                return []
            case .openOnPhone:
                // A click on it on the phone, which closes it unless it is resident.
                let click = response(notification.identifier, .default)
                remove(notification.identifier)
                return [click]
            case .clear:
                remove(notification.identifier)
                return [.clear(identifier: notification.identifier)]
            case .dismiss:
                let dismissal = response(notification.identifier, .dismiss)
                remove(notification.identifier)
                return [dismissal]
            case .action(let action) where action.textInput != nil:
                push(.textReply(identifier: notification.identifier, action: action.identifier, selection: 0))
                return []
            case .action(let action):
                // Acting on a notification removes it, as on the phone.
                let reply = response(notification.identifier, .custom(action.identifier))
                remove(notification.identifier)
                return [reply]
            }
        case .back:
            pop()
            return []
        }
        if let focus = position.focus { position.scroll = geometry.scroll(toShow: focus, from: position.scroll) }
        state.screen = .longLook(position)
        return []
    }

    private mutating func openLongLook(_ identifier: String, replacingCurrent: Bool) {
        state.unread.remove(identifier)
        let screen = Screen.longLook(LongLookPosition(identifier: identifier))
        if replacingCurrent { state.screen = screen } else { push(screen) }
    }

    /// A list selection moved by Up or Down, stopping at the ends.
    private func step(_ selection: Int, _ key: UIKey, count: Int) -> Int {
        guard count > 0 else { return 0 }
        return key == .up ? max(selection - 1, 0) : min(selection + 1, count - 1)
    }
}
