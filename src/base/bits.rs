//! Fixed-width two's complement on `u128` bit patterns: the mask of a width, truncation to it,
//! sign extension from it, and the extremes of the signed values of a width.
//!
//! A value of width `w` is held in the low `w` bits of a `u128`; widths run from 1 to 128.
//! `mask`, `truncate` and `sign_extend` also take 0 (no bits: the mask and the values are 0) and
//! widths over 128 (all bits); `sign_bit`, `min_signed` and `max_signed` need a width in 1..=128.

/// The low `width` bits set: `2^width - 1` (0 for width 0, every bit from width 128 on).
pub fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// `value` modulo `2^width`: its low `width` bits.
pub fn truncate(value: u128, width: u32) -> u128 {
    value & mask(width)
}

/// The low `width` bits of `value` read as a two's-complement number (0 for width 0).
pub fn sign_extend(value: u128, width: u32) -> i128 {
    match width {
        0 => 0,
        1..=127 => {
            let unused = 128 - width;
            ((value << unused) as i128) >> unused
        }
        _ => value as i128,
    }
}

/// The sign bit of width `width` (1..=128): `2^(width-1)`, the pattern of the least signed value.
pub fn sign_bit(width: u32) -> u128 {
    1u128 << (width - 1)
}

/// The least signed value of width `width` (1..=128): `-2^(width-1)`.
pub fn min_signed(width: u32) -> i128 {
    i128::MIN >> (128 - width)
}

/// The greatest signed value of width `width` (1..=128): `2^(width-1) - 1`.
pub fn max_signed(width: u32) -> i128 {
    i128::MAX >> (128 - width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_truncation() {
        for (w, m) in
            [(0, 0), (1, 1), (8, 0xff), (32, u32::MAX as u128), (63, i64::MAX as u128), (64, u64::MAX as u128)]
        {
            assert_eq!(mask(w), m, "width {w}");
            assert_eq!(truncate(u128::MAX, w), m, "width {w}");
            assert_eq!(truncate(1u128 << w.min(127) | 2, w), 2 & m, "width {w}");
        }
        assert_eq!(mask(128), u128::MAX);
        assert_eq!(truncate(u128::MAX - 1, 200), u128::MAX - 1);
    }

    #[test]
    fn sign_extension() {
        for w in [1, 8, 32, 63, 64] {
            assert_eq!(sign_extend(mask(w), w), -1, "width {w}");
            assert_eq!(sign_extend(sign_bit(w), w), min_signed(w), "width {w}");
            assert_eq!(sign_extend(mask(w) >> 1, w), max_signed(w), "width {w}");
            // Bits above the width do not count.
            assert_eq!(sign_extend(!mask(w) | (mask(w) >> 1), w), max_signed(w), "width {w}");
            assert_eq!(sign_extend(0, w), 0, "width {w}");
        }
        assert_eq!(sign_extend(0x80, 8), -128);
        assert_eq!(sign_extend(0x7f, 8), 127);
        assert_eq!(sign_extend(0xffff_fffe, 32), -2);
        assert_eq!(sign_extend(5, 0), 0);
        assert_eq!(sign_extend(u128::MAX, 128), -1);
    }

    #[test]
    fn extremes() {
        for (w, min, max) in [
            (1, -1, 0),
            (8, i8::MIN as i128, i8::MAX as i128),
            (32, i32::MIN as i128, i32::MAX as i128),
            (63, -(1i128 << 62), (1i128 << 62) - 1),
            (64, i64::MIN as i128, i64::MAX as i128),
            (128, i128::MIN, i128::MAX),
        ] {
            assert_eq!((min_signed(w), max_signed(w)), (min, max), "width {w}");
            assert_eq!(sign_bit(w), min as u128 & mask(w), "width {w}");
        }
    }
}
