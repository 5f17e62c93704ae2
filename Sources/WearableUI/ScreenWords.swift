import RelayCore

/// The words the screens say themselves (not a notification's), in the wearable's language,
/// and which way that language's screens run.
///
/// English, Hebrew and Arabic are written out; any other language gets the English words, in
/// a mirrored layout when it is written right to left (Persian, Urdu). Digits stay Western in
/// every language so that the clock keeps one width (Docs/WEARABLE.md, "Languages").
public struct ScreenWords: Hashable, Sendable {
    /// The language tag whose plural rules count things: the one asked for when its words are
    /// written out, English otherwise.
    public private(set) var language = "en"
    /// Whether the screens are mirrored: the language is written right to left.
    public private(set) var rightToLeft: Bool
    /// The watch face's link state while connected.
    public let connected: String
    /// The watch face's link state while the phone is away.
    public let outOfRange: String
    /// The watch face's line while do not disturb is on.
    public let doNotDisturb: String
    /// The watch face's line with nothing unread.
    public let noNewNotifications: String
    /// The watch face's unread count.
    let newNotifications: PluralizedText
    /// The list's title.
    public let notifications: String
    /// Sunday first, as the screens abbreviate them.
    let weekdays: [String]
    /// January first, as the date line writes them (with a preposition where the language needs one).
    let months: [String]
    /// The date line: `{weekday}`, `{day}` and `{month}` replaced.
    let datePattern: String
    /// Before noon on a 12-hour clock.
    let am: String
    /// After noon on a 12-hour clock.
    let pm: String

    /// The words for a language tag (`he`, `ar-EG`, `en_GB.UTF-8`).
    public init(language tag: String) {
        let language = Self.primaryLanguage(tag)
        self = Self.tables[language] ?? Self.english
        rightToLeft = Self.rightToLeftLanguages.contains(language)
        // English words are counted by English's rules, whatever the language asked for.
        if Self.tables[language] != nil { self.language = tag }
    }

    /// "3 new notifications", by the language's plural rules.
    public func newNotifications(_ count: Int) -> String {
        newNotifications.format(count: count, language: language)
    }

    /// "Mon 7 Jun", "יום ב׳, 7 ביוני".
    func date(weekday: Int, day: Int, month: Int) -> String {
        datePattern
            .replacingOccurrences(of: "{weekday}", with: weekdays[(weekday - 1) % 7])
            .replacingOccurrences(of: "{day}", with: String(day))
            .replacingOccurrences(of: "{month}", with: months[(month - 1) % 12])
    }

    // The languages written right to left, by ISO 639-1 or -3 code.
    private static let rightToLeftLanguages: Set<String> = ["ar", "he", "iw", "fa", "ur", "yi", "ps", "sd", "ckb", "dv", "ug"]

    private static func primaryLanguage(_ tag: String) -> String {
        tag.lowercased().split(whereSeparator: { "-_.@".contains($0) }).first.map(String.init) ?? ""
    }

    private init(
        connected: String, outOfRange: String, doNotDisturb: String, noNewNotifications: String,
        newNotifications: PluralizedText, notifications: String, weekdays: [String], months: [String], datePattern: String,
        am: String, pm: String
    ) {
        rightToLeft = false
        self.connected = connected
        self.outOfRange = outOfRange
        self.doNotDisturb = doNotDisturb
        self.noNewNotifications = noNewNotifications
        self.newNotifications = newNotifications
        self.notifications = notifications
        self.weekdays = weekdays
        self.months = months
        self.datePattern = datePattern
        self.am = am
        self.pm = pm
    }

    private static let english = ScreenWords(
        connected: "Connected", outOfRange: "Out of range", doNotDisturb: "Do not disturb",
        noNewNotifications: "No new notifications",
        newNotifications: PluralizedText(one: "%u new notification", other: "%u new notifications"),
        notifications: "Notifications",
        weekdays: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
        months: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
        datePattern: "{weekday} {day} {month}", am: "AM", pm: "PM")

    // CLDR's abbreviated names and its MMMEd pattern ("E, d בMMM").
    private static let hebrew = ScreenWords(
        connected: "מחובר", outOfRange: "מחוץ לטווח", doNotDisturb: "נא לא להפריע",
        noNewNotifications: "אין התראות חדשות",
        newNotifications: PluralizedText(forms: [.one: "התראה חדשה אחת", .other: "%u התראות חדשות"])!,
        notifications: "התראות",
        weekdays: ["יום א׳", "יום ב׳", "יום ג׳", "יום ד׳", "יום ה׳", "יום ו׳", "שבת"],
        months: ["בינו׳", "בפבר׳", "במרץ", "באפר׳", "במאי", "ביוני", "ביולי", "באוג׳", "בספט׳", "באוק׳", "בנוב׳", "בדצמ׳"],
        datePattern: "{weekday}, {day} {month}", am: "לפנה״צ", pm: "אחה״צ")

    // CLDR's names and its MMMEd pattern ("E، d MMM"); the counted noun's forms follow Arabic's
    // six plural categories.
    private static let arabic = ScreenWords(
        connected: "متصل", outOfRange: "خارج النطاق", doNotDisturb: "عدم الإزعاج",
        noNewNotifications: "لا توجد إشعارات جديدة",
        newNotifications: PluralizedText(forms: [
            .zero: "لا توجد إشعارات جديدة", .one: "إشعار جديد واحد", .two: "إشعاران جديدان",
            .few: "%u إشعارات جديدة", .many: "%u إشعارًا جديدًا", .other: "%u إشعار جديد",
        ])!,
        notifications: "الإشعارات",
        weekdays: ["الأحد", "الاثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت"],
        months: ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"],
        datePattern: "{weekday}، {day} {month}", am: "ص", pm: "م")

    private static let tables: [String: ScreenWords] = ["en": english, "he": hebrew, "iw": hebrew, "ar": arabic]
}
