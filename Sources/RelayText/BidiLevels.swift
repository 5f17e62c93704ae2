import CFriBidi

/// The Unicode Bidirectional Algorithm (UAX #9) for one paragraph, by FriBidi: the embedding
/// level of each scalar (even: left to right, odd: right to left) and the paragraph's direction.
struct BidiLevels {
    /// How a paragraph's direction is chosen.
    enum Direction: Hashable {
        /// From its first strong character (rules P2–P3), left to right when it has none.
        case auto
        case leftToRight
        case rightToLeft
    }

    /// One level per scalar.
    let levels: [UInt8]
    /// Whether the paragraph runs right to left.
    let isRightToLeft: Bool

    init(_ scalars: [UInt32], direction: Direction) {
        let count = Int32(scalars.count)
        var base: FriBidiParType =
            switch direction {
            case .auto: relay_fribidi_par_auto()
            case .leftToRight: relay_fribidi_par_ltr()
            case .rightToLeft: relay_fribidi_par_rtl()
            }
        guard count > 0 else {
            levels = []
            isRightToLeft = direction == .rightToLeft
            return
        }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: scalars.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: scalars.count)
        var levels = [FriBidiLevel](repeating: 0, count: scalars.count)
        fribidi_get_bidi_types(scalars, count, &types)
        fribidi_get_bracket_types(scalars, count, types, &brackets)
        let resolved = fribidi_get_par_embedding_levels_ex(types, brackets, count, &base, &levels)
        isRightToLeft = base == relay_fribidi_par_rtl()
        // 0 is FriBidi's failure (out of memory): every scalar then at the paragraph's level.
        self.levels = resolved == 0 ? [UInt8](repeating: isRightToLeft ? 1 : 0, count: scalars.count) : levels.map { UInt8(bitPattern: $0) }
    }

    /// The visual order of runs with these levels, left to right (rule L2: from the highest level
    /// down to the lowest odd one, each maximal sequence at that level or above is reversed).
    static func visualOrder(_ runLevels: [UInt8]) -> [Int] {
        var order = Array(runLevels.indices)
        guard let highest = runLevels.max(), let lowestOdd = runLevels.filter({ $0 % 2 == 1 }).min() else { return order }
        var level = highest
        while level >= lowestOdd {
            var index = 0
            while index < order.count {
                guard runLevels[order[index]] >= level else {
                    index += 1
                    continue
                }
                var end = index
                while end < order.count, runLevels[order[end]] >= level { end += 1 }
                order[index..<end].reverse()
                index = end
            }
            if level == 0 { break }
            level -= 1
        }
        return order
    }
}
