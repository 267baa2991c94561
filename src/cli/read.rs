//! Reading files, bounded.  Every file the command line reads goes through
//! here, so that no input can make it hang or fill the memory.
//!
//! Only regular files are read: a FIFO, a device (`/dev/zero`), a socket or a
//! folder is refused before any byte is read.  The path's metadata is checked
//! before opening it, the file is opened without blocking (so a FIFO swapped
//! in between cannot stall the open), and the opened file is checked again.
//! Each kind of file has a size limit; no read goes more than one byte past
//! it, so a file that grows while it is read is refused all the same.

use miette::{miette, IntoDiagnostic, Result, WrapErr};
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// What a kind of file may hold, and what to say when it holds more.
pub struct Limit {
    /// The most bytes a file of this kind may have.
    pub bytes: u64,
    /// The kind of file, after "the most": "a project manifest".
    pub what: &'static str,
    /// What to do about a file that is too large.
    pub help: &'static str,
}

/// `cardsmith.toml`: a few settings, never near this.
pub const MANIFEST: Limit = Limit {
    bytes: 1 << 20,
    what: "a project manifest",
    help: "cardsmith.toml holds a few settings; check that the file is the project's manifest",
};

/// A face template of the project (`templates/<ruleset>/*.svg`), with any
/// images it embeds.
pub const TEMPLATE: Limit = Limit {
    bytes: 8 << 20,
    what: "a template",
    help: "link large images from the template instead of embedding them, or make them smaller",
};

/// An image a card names for `print`: far more than a card needs.
pub const IMAGE: Limit =
    Limit { bytes: 16 << 20, what: "an image", help: "make the image smaller: 300 dpi at the card's size is plenty" };

/// A font file a project names for `print`: a large CJK font is 20 MB.
/// A spreadsheet of cards, as CSV: as large as the card files it becomes.
pub const TABLE: Limit = Limit {
    bytes: cardsmith::syntax::MAX_FILE_SIZE as u64,
    what: "a table of cards",
    help: "split the sheet into several tables, one card kind each",
};

pub const FONT: Limit =
    Limit { bytes: 32 << 20, what: "a font", help: "use a smaller font file, or one with fewer scripts" };

/// An engine data document for `timeline --data`: the engine data of
/// 20,000 cards is about 64 MB as `cardsmith build` writes it (indented).
/// With [`ENGINE_DATA_VALUES`], this bounds what reading one takes to well
/// under a gigabyte, whatever it holds.
pub const ENGINE_DATA: Limit = Limit {
    bytes: 80 << 20,
    what: "an engine data document",
    help: "pass a document written by `cardsmith build`, or build in memory by naming the card folders instead",
};

/// The most JSON values an engine data document may hold, counted before it
/// is parsed ([`json_values_at_most`]): the engine data of 20,000 cards
/// holds about 1,700,000, and a value parsed takes at most about 350 bytes.
pub const ENGINE_DATA_VALUES: usize = 2_000_000;

/// A report of `cardsmith simulate --format json`, for `simulate merge`:
/// its totals grow with the cards and the rounds, not with the games, so
/// even a game of thousands of cards writes a few megabytes.
pub const SIMULATE_REPORT: Limit = Limit {
    bytes: 64 << 20,
    what: "a simulate report",
    help: "pass reports written by `cardsmith simulate --format json`",
};

/// The most JSON values a simulate report may hold, counted before it is
/// parsed, as for engine data ([`ENGINE_DATA_VALUES`]).
pub const SIMULATE_REPORT_VALUES: usize = 2_000_000;

/// A card or ruleset file: at most one byte past the checker's limit, so that
/// the checker reports a longer file with its own diagnostic (E0009
/// file-too-large) without the rest being read.
pub fn source(path: &Path) -> Result<Vec<u8>> {
    let file = open_regular(path)?;
    at_most(file, path, cardsmith::syntax::MAX_FILE_SIZE as u64 + 1)
}

/// The whole of a file of at most `limit` bytes.
pub fn bytes(path: &Path, limit: &Limit) -> Result<Vec<u8>> {
    let file = open_regular(path)?;
    let declared = file.metadata().map(|m| m.len()).unwrap_or(0);
    // The declared length refuses a large file unread; reading one byte past
    // the limit refuses one that grew since.
    if declared > limit.bytes {
        return Err(too_large(path, limit));
    }
    let bytes = at_most(file, path, limit.bytes + 1)?;
    if bytes.len() as u64 > limit.bytes {
        return Err(too_large(path, limit));
    }
    Ok(bytes)
}

/// The whole of a UTF-8 text file of at most `limit` bytes.
pub fn text(path: &Path, limit: &Limit) -> Result<String> {
    utf8(path, bytes(path, limit)?)
}

/// The text of a file read as `bytes`, which must be UTF-8.
pub fn utf8(path: &Path, bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        miette!(
            help = "save the file as UTF-8 text",
            "{} is not UTF-8 text (byte {} is not valid)",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Whether the regular file at `path` holds exactly `expected`, read to at
/// most one byte past it; a file that cannot be read does not.
pub fn holds(path: &Path, expected: &[u8]) -> bool {
    let Ok(file) = open_regular(path) else { return false };
    at_most(file, path, expected.len() as u64 + 1).is_ok_and(|bytes| bytes == expected)
}

/// Whether a JSON text holds at most `most` values, counted without parsing
/// it, in one pass: each `{` and `[` opens one, each `,` starts the next,
/// and what is inside strings does not count.  What parsing a text builds
/// grows with this count, not with its bytes: a few bytes (`{"a":0},`)
/// can become hundreds.
pub fn json_values_at_most(json: &[u8], most: usize) -> bool {
    let (mut values, mut in_string, mut escaped) = (0, false, false);
    for &byte in json {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else if byte == b'"' {
            in_string = true;
        } else if matches!(byte, b'{' | b'[' | b',') {
            values += 1;
            if values > most {
                return false;
            }
        }
    }
    true
}

pub fn too_large(path: &Path, limit: &Limit) -> miette::Report {
    miette!(
        help = limit.help,
        "{} is larger than {} bytes ({} MiB), the most {} may hold",
        path.display(),
        limit.bytes,
        limit.bytes >> 20,
        limit.what
    )
}

fn at_most(file: File, path: &Path, max: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(max)
        .read_to_end(&mut bytes)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot read {}", path.display()))?;
    Ok(bytes)
}

/// Opens `path` for reading if it is a regular file (links followed).
fn open_regular(path: &Path) -> Result<File> {
    let before =
        std::fs::metadata(path).into_diagnostic().wrap_err_with(|| format!("cannot read {}", path.display()))?;
    refuse_unless_regular(path, &before)?;
    let file =
        open_without_blocking(path).into_diagnostic().wrap_err_with(|| format!("cannot open {}", path.display()))?;
    let opened = file.metadata().into_diagnostic().wrap_err_with(|| format!("cannot read {}", path.display()))?;
    refuse_unless_regular(path, &opened)?;
    Ok(file)
}

#[cfg(target_os = "linux")]
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Opening a FIFO for reading blocks until a writer comes; O_NONBLOCK
    // returns at once, and means nothing for a regular file.
    let nonblocking = rustix::fs::OFlags::NONBLOCK.bits() as i32;
    std::fs::OpenOptions::new().read(true).custom_flags(nonblocking).open(path)
}

#[cfg(not(target_os = "linux"))]
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

fn refuse_unless_regular(path: &Path, meta: &std::fs::Metadata) -> Result<()> {
    if meta.is_file() {
        return Ok(());
    }
    Err(miette!(
        help = "name a regular file: reading from a pipe or a device could wait, or go on, for ever",
        "{} is {}, not a regular file",
        path.display(),
        kind(meta)
    ))
}

/// What a file that is not a regular file is, in words.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn fifo(dir: &Path) -> std::path::PathBuf {
        use rustix::fs::{mknodat, FileType, Mode, CWD};
        let path = dir.join("pipe.cards");
        mknodat(CWD, &path, FileType::Fifo, Mode::RUSR | Mode::WUSR, 0).expect("mkfifo");
        path
    }

    #[test]
    fn a_fifo_is_refused_before_it_is_opened() {
        let dir = tempfile::tempdir().expect("temp dir");
        let error = source(&fifo(dir.path())).expect_err("a FIFO is refused");
        assert!(error.to_string().contains("is a named pipe (FIFO), not a regular file"), "{error}");
    }

    /// The path is checked before it is opened; a FIFO put in its place in
    /// between must not block the open, and is refused once open.
    #[test]
    fn opening_a_fifo_does_not_wait_for_a_writer() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = fifo(dir.path());
        let file = open_without_blocking(&path).expect("opened at once");
        let error = refuse_unless_regular(&path, &file.metadata().expect("metadata")).expect_err("refused");
        assert!(error.to_string().contains("FIFO"), "{error}");
    }

    #[test]
    fn a_text_file_longer_than_its_limit_is_refused_unread() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("cardsmith.toml");
        // Sparse: no disk is used, and nothing may be read from it.
        File::create(&path).and_then(|f| f.set_len(MANIFEST.bytes + 1)).expect("sparse file");
        let error = text(&path, &MANIFEST).expect_err("refused");
        assert!(error
            .to_string()
            .contains("is larger than 1048576 bytes (1 MiB), the most a project manifest may hold"));
        std::fs::write(&path, vec![b'#'; MANIFEST.bytes as usize]).expect("write");
        assert_eq!(text(&path, &MANIFEST).expect("at the limit").len(), MANIFEST.bytes as usize);
    }

    #[test]
    fn a_source_file_is_read_one_byte_past_its_limit_and_no_further() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("huge.cards");
        File::create(&path).and_then(|f| f.set_len(50 << 20)).expect("sparse file");
        assert_eq!(source(&path).expect("read").len(), cardsmith::syntax::MAX_FILE_SIZE + 1);
    }

    #[test]
    fn text_that_is_not_utf8_names_the_first_bad_byte() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("template.svg");
        std::fs::write(&path, b"<svg>\xff</svg>").expect("write");
        let error = text(&path, &TEMPLATE).expect_err("refused");
        assert!(error.to_string().contains("is not UTF-8 text (byte 5 is not valid)"), "{error}");
    }
}
