//! How a ruleset's colours print: a role's colour or a kind's border that
//! hardly shows on the face's white body, and two roles whose colours print
//! as the same grey in black and white with nothing else to tell them apart.

use super::codes;
use super::model::Ruleset;
use super::palette::{contrast, luminance, FACE_BACKGROUND};
use crate::diagnostics::Diagnostic;

/// Below this contrast ratio with the face's background a colour hardly
/// shows (white on white is 1, yellow on white 1.97).
const FAINT: f64 = 1.5;

/// Below this contrast ratio two colours print as nearly the same grey
/// (red and blue, 1.08).
const ALIKE_IN_GREY: f64 = 1.2;

/// Warns about colours that print badly.
pub(super) fn check(ruleset: &Ruleset, diagnostics: &mut Vec<Diagnostic>) {
    let Some(paper) = luminance(FACE_BACKGROUND) else { return };
    let faint = |colour: &str| luminance(colour).filter(|l| contrast(*l, paper) < FAINT).map(|l| contrast(l, paper));
    for role in &ruleset.roles {
        let (Some(colour), Some(span)) = (role.colour.as_deref(), role.colour_span) else { continue };
        if let Some(ratio) = faint(colour) {
            diagnostics.push(
                Diagnostic::warning(&codes::FAINT_COLOUR, format!("`{colour}` hardly shows on the card"))
                    .primary(span, format!("`{}` effects print in this colour on a white face", role.id))
                    .note(format!("its contrast with the white face is {ratio:.2} to 1; below {FAINT} it fades"))
                    .help("choose a darker colour: black, grey, red, green, blue, purple or brown"),
            );
        }
    }
    for kind in &ruleset.kinds {
        let (Some(colour), Some(span)) = (kind.border.as_deref(), kind.border_span) else { continue };
        if let Some(ratio) = faint(colour) {
            diagnostics.push(
                Diagnostic::warning(&codes::FAINT_COLOUR, format!("`{colour}` hardly shows on the card"))
                    .primary(span, format!("the border of `{}` frames a white face in this colour", kind.id))
                    .note(format!(
                        "its contrast with the white face is {ratio:.2} to 1; below {FAINT} the frame fades, \
                         and the card's name, printed in white on it, cannot be read"
                    ))
                    .help("choose a darker colour: black, grey, red, green, blue, purple or brown"),
            );
        }
    }
    alike_in_grey(ruleset, diagnostics);
}

/// Two roles whose colours print as one grey and whose marks do not tell
/// them apart (one has none, or both have the same).
fn alike_in_grey(ruleset: &Ruleset, diagnostics: &mut Vec<Diagnostic>) {
    let coloured: Vec<_> = ruleset
        .roles
        .iter()
        .filter_map(|role| Some((role, luminance(role.colour.as_deref()?)?, role.colour_span?)))
        .collect();
    for (i, (role, grey, span)) in coloured.iter().enumerate() {
        let earlier = coloured[..i].iter().find(|(other, other_grey, _)| {
            let marked_apart = matches!((&role.mark, &other.mark), (Some(a), Some(b)) if a != b);
            !marked_apart && contrast(*grey, *other_grey) < ALIKE_IN_GREY
        });
        let Some((other, _, other_span)) = earlier else { continue };
        let colour = role.colour.as_deref().unwrap_or_default();
        let other_colour = other.colour.as_deref().unwrap_or_default();
        diagnostics.push(
            Diagnostic::warning(
                &codes::ALIKE_IN_GREY,
                format!("roles `{}` and `{}` print as the same grey", other.id, role.id),
            )
            .primary(*span, format!("`{colour}` is nearly as light as `{other_colour}`"))
            .secondary(*other_span, format!("the colour of `{}`", other.id))
            .note("in black and white, or to a colour-blind reader, the two roles' effects look alike")
            .help("give each role a `mark` of its own (`mark triangle-up`), or colours further apart in lightness"),
        );
    }
}
