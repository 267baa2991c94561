//! Tabletop Simulator: deck sheets of up to 10 × 7 faces, at most 4096
//! pixels a side, the back most cards share, a sheet of backs beside any
//! sheet holding a card with a back of its own (`UniqueBack`), and the saved
//! object (a `DeckCustom`) that references them.  The image addresses in the
//! JSON are the images' file names, after the address where they will be
//! hosted when one is given (`--base-url`; the command line gives the
//! output folder's own `file:///` address otherwise).  Tabletop Simulator
//! draws every card on a poker-shaped model: a deck of wider cards is
//! marked `SidewaysCard`, and one of other proportions is scaled across so
//! that its faces are not stretched.

use serde_json::{json, Value};

pub const MAX_COLUMNS: usize = 10;
pub const MAX_ROWS: usize = 7;
pub const MAX_PIXELS: u32 = 4096;
/// Tabletop Simulator shows the last slot of a full 10 × 7 sheet as the
/// hidden face, so a sheet holds at most 69 cards.
pub const PER_SHEET: usize = MAX_COLUMNS * MAX_ROWS - 1;

/// The shape of one sheet: columns, rows and the pixel size of one face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sheet {
    pub columns: usize,
    pub rows: usize,
    pub face_w: u32,
    pub face_h: u32,
}

impl Sheet {
    /// A sheet for `count` faces of a card `card_w` × `card_h` (any unit),
    /// each face at most `max_w` pixels wide.
    pub fn new(count: usize, card_w: f32, card_h: f32, max_w: u32) -> Sheet {
        let count = count.clamp(1, PER_SHEET);
        let columns = count.clamp(2, MAX_COLUMNS);
        let rows = count.div_ceil(columns).clamp(2, MAX_ROWS);
        let aspect = card_h / card_w.max(0.01);
        let by_width = MAX_PIXELS / columns as u32;
        let by_height = ((MAX_PIXELS / rows as u32) as f32 / aspect).floor() as u32;
        let face_w = max_w.min(by_width).min(by_height).max(16);
        let face_h = ((face_w as f32 * aspect).round() as u32).min(MAX_PIXELS / rows as u32);
        Sheet { columns, rows, face_w, face_h }
    }
}

/// The images of one sheet: its fronts, and its backs when its cards do not
/// all show the deck's common back.
pub struct SheetFiles {
    pub face: String,
    pub back: Option<String>,
    pub sheet: Sheet,
}

/// One card of the deck: which sheet and slot shows it, and its name.
pub struct DeckCard<'a> {
    pub name: &'a str,
    pub sheet: usize,
    pub slot: usize,
}

/// The address of an image: its file name after `base_url` (with one `/`
/// between them), or the bare file name.
pub fn address(base_url: Option<&str>, file: &str) -> String {
    match base_url {
        Some(base) if !base.is_empty() => format!("{}/{file}", base.trim_end_matches('/')),
        _ => file.to_string(),
    }
}

/// The proportions of the card model Tabletop Simulator draws every card
/// on: a poker card's, short side over long side.
pub const MODEL_ASPECT: f64 = 63.5 / 88.9;

/// The transform of a deck, or of one of its cards, of `card` (width,
/// height, any unit): face down, with the model's short side scaled so the
/// card keeps its own proportions (1 for poker and bridge-length cards of
/// a poker's shape), rounded to four places.
pub fn transform(card: (f32, f32)) -> Value {
    let (short, long) = (f64::from(card.0.min(card.1)), f64::from(card.0.max(card.1).max(0.01)));
    let across = (short / long / MODEL_ASPECT * 10_000.0).round() / 10_000.0;
    json!({"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
        "scaleX": across, "scaleY": 1.0, "scaleZ": 1.0})
}

/// The saved object: a deck with every copy, its sheets and back, the
/// images addressed after `base_url`, for cards `card` (width, height)
/// large: wider than tall is `SidewaysCard`.
pub fn saved_object(
    title: &str,
    (cards, card): (&[DeckCard], (f32, f32)),
    sheets: &[SheetFiles],
    back: &str,
    base_url: Option<&str>,
) -> Value {
    let custom: serde_json::Map<String, Value> = sheets
        .iter()
        .enumerate()
        .map(|(index, files)| {
            (
                (index + 1).to_string(),
                json!({
                    "FaceURL": address(base_url, &files.face),
                    "BackURL": address(base_url, files.back.as_deref().unwrap_or(back)),
                    "NumWidth": files.sheet.columns,
                    "NumHeight": files.sheet.rows,
                    "BackIsHidden": true,
                    "UniqueBack": files.back.is_some(),
                    "Type": 0
                }),
            )
        })
        .collect();
    let id = |card: &DeckCard| (card.sheet + 1) * 100 + card.slot;
    let (transform, sideways) = (transform(card), card.0 > card.1);
    let contained: Vec<Value> = cards
        .iter()
        .map(|card| {
            let deck = (card.sheet + 1).to_string();
            json!({
                "Name": "Card",
                "Nickname": card.name,
                "CardID": id(card),
                "Transform": transform,
                "SidewaysCard": sideways,
                "CustomDeck": { deck.clone(): custom.get(&deck).cloned().unwrap_or(Value::Null) }
            })
        })
        .collect();
    json!({
        "SaveName": title,
        "ObjectStates": [{
            "Name": "DeckCustom",
            "Nickname": title,
            "Transform": transform,
            "SidewaysCard": sideways,
            "DeckIDs": cards.iter().map(id).collect::<Vec<_>>(),
            "CustomDeck": custom,
            "ContainedObjects": contained
        }]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheets_stay_within_the_limits() {
        for count in [1, 2, 9, 26, 69, 200] {
            let sheet = Sheet::new(count, 63.5, 88.9, 750);
            assert!(sheet.columns <= MAX_COLUMNS && sheet.rows <= MAX_ROWS, "{count}: {sheet:?}");
            assert!(sheet.columns * sheet.rows > count.min(PER_SHEET) - 1);
            assert!(sheet.face_w * sheet.columns as u32 <= MAX_PIXELS, "{count}: {sheet:?}");
            assert!(sheet.face_h * sheet.rows as u32 <= MAX_PIXELS, "{count}: {sheet:?}");
        }
        assert_eq!(Sheet::new(69, 63.5, 88.9, 750), Sheet { columns: 10, rows: 7, face_w: 409, face_h: 573 });
    }

    #[test]
    fn the_saved_object_lists_every_copy() {
        let cards = [
            DeckCard { name: "A", sheet: 0, slot: 0 },
            DeckCard { name: "A", sheet: 0, slot: 0 },
            DeckCard { name: "B", sheet: 0, slot: 1 },
        ];
        let sheet = Sheet::new(2, 63.5, 88.9, 750);
        let files = [
            SheetFiles { face: "deck-1.png".into(), back: None, sheet },
            SheetFiles { face: "deck-2.png".into(), back: Some("deck-2-backs.png".into()), sheet },
        ];
        let object = saved_object("Deck", (&cards, (63.5, 88.9)), &files, "back.png", None);
        assert_eq!(object["ObjectStates"][0]["DeckIDs"], json!([100, 100, 101]));
        let custom = &object["ObjectStates"][0]["CustomDeck"];
        assert_eq!(custom["1"]["FaceURL"], "deck-1.png");
        assert_eq!((&custom["1"]["BackURL"], &custom["1"]["UniqueBack"]), (&json!("back.png"), &json!(false)));
        assert_eq!((&custom["2"]["BackURL"], &custom["2"]["UniqueBack"]), (&json!("deck-2-backs.png"), &json!(true)));
        assert_eq!(object["ObjectStates"][0]["ContainedObjects"][2]["Nickname"], "B");
        let hosted =
            saved_object("Deck", (&cards, (63.5, 88.9)), &files, "back.png", Some("https://example.org/cards/"));
        let custom = &hosted["ObjectStates"][0]["CustomDeck"];
        assert_eq!(custom["1"]["FaceURL"], "https://example.org/cards/deck-1.png");
        assert_eq!(custom["1"]["BackURL"], "https://example.org/cards/back.png");
        assert_eq!(address(Some("http://h/x"), "decks/a-1.png"), "http://h/x/decks/a-1.png");
        assert_eq!(address(Some("file:///home/me/print/tts"), "a-1.png"), "file:///home/me/print/tts/a-1.png");
    }

    #[test]
    fn wide_cards_lie_sideways_and_no_card_is_stretched() {
        let cards = [DeckCard { name: "A", sheet: 0, slot: 0 }];
        let sheet = Sheet::new(1, 63.5, 88.9, 750);
        let files = [SheetFiles { face: "deck-1.png".into(), back: None, sheet }];
        let object = |card| saved_object("Deck", (&cards, card), &files, "back.png", None);
        let deck = |card| object(card)["ObjectStates"][0].clone();
        let poker = deck((63.5, 88.9));
        assert_eq!((&poker["SidewaysCard"], &poker["Transform"]["scaleX"]), (&json!(false), &json!(1.0)));
        let wide = deck((88.9, 63.5));
        assert_eq!((&wide["SidewaysCard"], &wide["Transform"]["scaleX"]), (&json!(true), &json!(1.0)));
        assert_eq!(wide["ContainedObjects"][0]["SidewaysCard"], true, "each card lies as its deck does");
        // 70 × 120 is narrower than poker's 63.5 × 88.9: its model is
        // narrowed to match, and its cards with it.
        let tall = deck((70.0, 120.0));
        assert_eq!(tall["Transform"]["scaleX"], json!(0.8167));
        assert_eq!(tall["ContainedObjects"][0]["Transform"], tall["Transform"]);
        assert_eq!(tall["Transform"]["scaleZ"], json!(1.0));
    }
}
