//! Card sizes: the named sizes and `WxH` in millimetres.  A ruleset's
//! `card-size`, the manifest's `[print] card` and `[print.sizes]`, and the
//! print command all read sizes here, so they agree on what a size is.

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Size {
    pub w: f32,
    pub h: f32,
}

/// `poker`, `bridge`, `tarot`, `mini`, or `WxH` in millimetres (`63.5x88.9`).
pub fn card_size(name: &str) -> Result<Size, CardSizeError> {
    let size = match name.to_ascii_lowercase().as_str() {
        "poker" => Size { w: 63.5, h: 88.9 },
        "bridge" => Size { w: 57.15, h: 88.9 },
        "tarot" => Size { w: 70.0, h: 120.0 },
        "mini" => Size { w: 44.0, h: 67.0 },
        other => {
            let other = other.strip_suffix("mm").unwrap_or(other);
            let (w, h) = other.split_once('x').ok_or(CardSizeError::Unknown)?;
            let (w, h): (f32, f32) = match (w.trim().parse(), h.trim().parse()) {
                (Ok(w), Ok(h)) => (w, h),
                _ => return Err(CardSizeError::Unknown),
            };
            if !CARD_SIDE_MM.contains(&w) || !CARD_SIDE_MM.contains(&h) {
                return Err(CardSizeError::OutOfRange { w, h });
            }
            Size { w, h }
        }
    };
    Ok(size)
}

/// The sides a card may have, in millimetres.
pub const CARD_SIDE_MM: std::ops::RangeInclusive<f32> = 20.0..=400.0;

/// Why a card size was refused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CardSizeError {
    /// Neither a known name nor `WxH`.
    Unknown,
    /// `WxH` with a side outside [`CARD_SIDE_MM`] (or not a number).
    OutOfRange { w: f32, h: f32 },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(card_size("63x88"), Ok(Size { w: 63.0, h: 88.0 }));
        assert_eq!(card_size("70x120mm"), Ok(Size { w: 70.0, h: 120.0 }));
        assert_eq!(card_size("huge"), Err(CardSizeError::Unknown));
        assert_eq!(card_size("0x5"), Err(CardSizeError::OutOfRange { w: 0.0, h: 5.0 }));
        assert!(matches!(card_size("NaNx90"), Err(CardSizeError::OutOfRange { .. })));
    }
}
