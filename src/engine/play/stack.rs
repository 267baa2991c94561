//! Where a game stands between decisions: the stage of its round, and the
//! continuation stack of the procedures it is running (frames of a list of
//! operations or block steps, and where in it).  The types only: `turn.rs`
//! moves through the stages, `ops.rs` runs the frames.

#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub kind: FrameKind,
    pub you: u8,
    pub this: Option<u16>,
    pub amount: i64,
}

#[derive(Clone, Debug)]
pub(crate) enum FrameKind {
    /// A procedure run for itself (an action's, a phase's): a failed `pay`
    /// ends it.
    Proc {
        ops: u32,
        at: u32,
    },
    /// A list inside a procedure or an effect's procedure.
    Ops {
        ops: u32,
        at: u32,
    },
    Repeat {
        ops: u32,
        at: u32,
        left: u32,
    },
    ForEach {
        ops: u32,
        at: u32,
        cards: Vec<u16>,
        next: u32,
    },
    /// An effect block: a failed `pay` ends the rest of it.
    Body {
        body: u32,
        at: u32,
    },
    /// A `target` waiting for its card: the operation (list and index);
    /// the frame's amount is the one its block runs with.
    Target {
        ops: u32,
        at: u32,
    },
    /// A window for reactions: the seat that answers first, how many
    /// turns to answer have gone by, how many seats in a row have passed,
    /// and the reactions taken in it.
    Window {
        first: u8,
        turn: u32,
        quiet: u8,
        taken: u32,
    },
    /// A `chosen` move: the operation (list and index) and what is left.
    Chosen {
        ops: u32,
        at: u32,
        left: u32,
        moved: i64,
    },
}

impl Frame {
    pub(crate) fn new(kind: FrameKind, you: usize, this: Option<u16>, amount: i64) -> Frame {
        Frame { kind, you: you as u8, this, amount }
    }
}

/// The stage of a round the game is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    Begin,
    Start(u8),
    Turn(u8),
    Alternate { turn: u8, out: u64 },
    Choose(u8),
    Resolve(u16),
    End(u8),
    Over,
}
