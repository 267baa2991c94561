//! Printable proxies: card faces drawn from tera templates as SVG, then
//! rendered to PNG (resvg), PDF sheets (krilla), an HTML preview and
//! Tabletop Simulator deck sheets.
//!
//! The pipeline: [`view`] turns each card of the IR into plain data, its
//! rich text typed in a [`rich`] table that templates name by handle;
//! [`templates`] renders it through the card kind's template, whose
//! [`functions`] lay text out with [`layout`] (wrapping, inline icons,
//! shrink-to-fit, an overflow diagnostic) using the bundled [`fonts`];
//! [`svg`] parses the faces with usvg; [`png`], [`pdf`], [`html`] and [`tts`]
//! write the outputs, with [`sheet`] computing where cards sit on paper and
//! [`calibration`] drawing the sheet that measures a duplex printer and
//! [`checklist`] the list of copies that ends the sheets.  Cards
//! name their artwork in `image` fields; [`art`] checks what the command
//! line read for them and hands it to the templates.
//! Like every backend it returns bytes and never touches the file system.

pub mod art;
pub mod calibration;
pub mod checklist;
pub mod codes;
pub mod dial;
pub mod fonts;
pub mod functions;
pub mod html;
pub mod icons;
pub mod layout;
pub mod pdf;
pub mod png;
pub mod rich;
pub mod sandbox;
pub mod sheet;
pub mod stated;
pub mod svg;
pub mod templates;
pub mod tts;
pub mod view;

mod job;
mod outputs;

pub use job::{prepare, prepare_with, Assets, Blob, DeckCopies, Face, Formats, Job, Options, MIN_TEXT};
pub use outputs::{render, steps, RenderError};
