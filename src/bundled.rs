//! The content compiled into the binary: the bundled games' rulesets, the
//! face templates and the starter projects.  `build.rs` finds them in
//! `cards/` and `templates/`, so no game is named here.

include!(concat!(env!("OUT_DIR"), "/bundled.rs"));
