//! Replacing an output folder as a whole, so that a failing or interrupted
//! build never leaves it half-written.
//!
//! Every file is written (and flushed to disk) into a temporary folder next to
//! the output folder, on the same file system; only then is the temporary
//! folder moved into place.  On Linux the two folders are swapped in one
//! atomic `renameat2(RENAME_EXCHANGE)`; elsewhere (or on a file system that
//! cannot exchange) the old folder is renamed aside first.  A folder is only
//! ever replaced if it is new, empty, or was written by cardsmith (it holds the
//! [`MARKER`] file), so a mistyped `-o` cannot wipe unrelated files.
//!
//! Runs writing into one folder take turns: each holds an advisory lock on
//! the folder that holds its output while it checks, cleans up, writes and
//! swaps, and a second run waits for it with a note.  Temporary folders left
//! by killed runs are removed only under that lock, so a live run's never is.

use cardsmith::backend::OutputFile;
use miette::{miette, IntoDiagnostic, Result, WrapErr};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file that marks a folder as cardsmith's output.
pub const MARKER: &str = ".cardsmith-output";

const MARKER_TEXT: &str = "This folder is written by cardsmith and replaced as a whole on every build.\n";

/// Test hook, not a user setting: when set to a number of milliseconds, the
/// build sleeps that long after writing its temporary folder and before moving
/// it into place (and `fmt` and `lint --fix` before renaming a file into
/// place), so a test can kill it, or change what it writes over, at a known
/// moment.
const PAUSE_HOOK: &str = "CARDSMITH_TEST_HOOK_PAUSE_BEFORE_RENAME_MS";
const RELEASE_HOOK: &str = "CARDSMITH_TEST_HOOK_RELEASE_FILE";

/// Makes `out` hold exactly `files` (plus the marker), atomically.
pub fn replace_folder(out: &Path, files: &[OutputFile]) -> Result<()> {
    let files: Vec<(&str, &[u8])> = files.iter().map(|f| (f.name.as_str(), f.contents.as_bytes())).collect();
    replace_folder_bytes(out, &files)
}

/// Like [`replace_folder`], for files of any bytes whose names may hold
/// folders (`png/card.png`); a name that would leave the folder is refused.
pub fn replace_folder_bytes(out: &Path, files: &[(&str, &[u8])]) -> Result<()> {
    let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
    replace_folder_streamed(out, &names, |i, handle| handle.write_all(files[i].1).into_diagnostic())
}

/// Like [`replace_folder_bytes`], with each file's bytes written by
/// `write(index, file)` straight to the file, so that large output is never
/// held whole in memory.
pub fn replace_folder_streamed(
    out: &Path,
    names: &[&str],
    write: impl Fn(usize, &mut dyn Write) -> Result<()>,
) -> Result<()> {
    let (parent, name) = split(out)?;
    // Held until the new folder is in place, so that two runs into one
    // folder take turns instead of interleaving.
    let lock = lock_folder(&parent)?;
    check_replaceable(out)?;
    if lock.is_some() {
        // Only a run that holds the lock knows that no other is writing.
        remove_leftovers(&parent, &name);
    }
    let temp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    // A folder of that name that is not this run's is never removed.
    std::fs::create_dir(&temp).into_diagnostic().wrap_err_with(|| format!("cannot create {}", temp.display()))?;
    let written = write_all(&temp, names, &write).and_then(|()| {
        pause_for_tests();
        move_into_place(&temp, out, &parent, &name)
    });
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&temp);
    }
    written
}

/// The parent folder and the plain name of the output folder.
fn split(out: &Path) -> Result<(PathBuf, String)> {
    let name = out.file_name().and_then(|n| n.to_str()).filter(|n| !n.is_empty());
    let Some(name) = name else {
        return Err(miette!(help = "name a folder such as `out`", "cannot write the build to {}", out.display()));
    };
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name.to_string()))
}

fn check_replaceable(out: &Path) -> Result<()> {
    let Ok(meta) = std::fs::symlink_metadata(out) else { return Ok(()) };
    if !meta.is_dir() {
        return Err(miette!(help = "choose a folder with `-o DIR`", "{} exists and is not a folder", out.display()));
    }
    let mut entries =
        std::fs::read_dir(out).into_diagnostic().wrap_err_with(|| format!("cannot list {}", out.display()))?;
    if entries.next().is_none() || out.join(MARKER).is_file() {
        return Ok(());
    }
    Err(miette!(
        help = "choose a new or empty folder with `-o DIR`: the build replaces its output folder as a whole",
        "{} holds files that cardsmith did not write",
        out.display()
    ))
}

/// Takes the lock on the folder that holds the output folder, waiting (with a
/// note) while another run holds it.  It is the operating system's advisory
/// lock on the folder itself: it leaves no file behind, and a run that dies
/// releases it.  Where the file system cannot lock, the run goes on unlocked
/// with a warning; `None` then says so.
fn lock_folder(parent: &Path) -> Result<Option<std::fs::File>> {
    let folder = open_for_locking(parent)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot write into {}", parent.display()))?;
    let shown = || parent.canonicalize().unwrap_or_else(|_| parent.to_path_buf()).display().to_string();
    match folder.try_lock() {
        Ok(()) => Ok(Some(folder)),
        Err(std::fs::TryLockError::WouldBlock) => {
            eprintln!("waiting for another cardsmith run writing in {}", shown());
            folder.lock().into_diagnostic().wrap_err_with(|| format!("cannot lock {}", shown()))?;
            Ok(Some(folder))
        }
        Err(std::fs::TryLockError::Error(e)) => {
            eprintln!(
                "warning: cannot lock {} ({e}); another run writing there at the same time could interleave with this one",
                shown()
            );
            Ok(None)
        }
    }
}

#[cfg(unix)]
fn open_for_locking(parent: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(parent)
}

/// Where a folder cannot be opened as a file, a lock file beside the output
/// stands in for it.
#[cfg(not(unix))]
fn open_for_locking(parent: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(parent.join(".cardsmith-lock"))
}

/// Temporary folders of runs that were killed before they finished: named
/// as a run names them (`.out.tmp-PID`, `.out.old-PID`) and either empty or
/// holding the marker, which a run writes into its folder first.  A folder
/// that is named so but holds files cardsmith did not write is someone
/// else's: it is left as it is, with a warning.
fn remove_leftovers(parent: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    let prefixes = [format!(".{name}.tmp-"), format!(".{name}.old-")];
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let file_name = file_name.to_string_lossy();
        let Some(id) = prefixes.iter().find_map(|p| file_name.strip_prefix(p.as_str())) else { continue };
        let folder = entry.path();
        let is_folder = std::fs::symlink_metadata(&folder).is_ok_and(|meta| meta.is_dir());
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) || !is_folder {
            continue;
        }
        if std::fs::remove_dir(&folder).is_ok() {
            continue;
        }
        if std::fs::symlink_metadata(folder.join(MARKER)).is_ok_and(|meta| meta.is_file()) {
            let _ = std::fs::remove_dir_all(&folder);
        } else {
            eprintln!(
                "warning: left {} as it is: it is named like a folder a killed cardsmith run leaves, but holds \
                 files cardsmith did not write",
                folder.display()
            );
        }
    }
}

/// Writes the files into the new folder `temp`, the marker first (empty,
/// so the folder is known as cardsmith's should the run be killed) and
/// last (with its text, once every file is written).
fn write_all(temp: &Path, names: &[&str], write: &dyn Fn(usize, &mut dyn Write) -> Result<()>) -> Result<()> {
    write_file(&temp.join(MARKER), |_| Ok(()))?;
    for (i, name) in names.iter().enumerate() {
        let path = file_in(temp, name)?;
        write_file(&path, |handle| write(i, handle))?;
    }
    write_file(&temp.join(MARKER), |handle| handle.write_all(MARKER_TEXT.as_bytes()).into_diagnostic())
}

/// The path of a file named by a relative path inside `folder`, with the
/// folders that lead to it made.
fn file_in(folder: &Path, name: &str) -> Result<PathBuf> {
    let relative = Path::new(name);
    if !relative.components().all(|c| matches!(c, std::path::Component::Normal(_))) {
        return Err(miette!("refusing to write `{name}` outside the output folder"));
    }
    let path = folder.join(relative);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .into_diagnostic()
            .wrap_err_with(|| format!("cannot create {}", parent.display()))?;
    }
    Ok(path)
}

/// Creates a file, has `write` fill it, and flushes it to disk.
fn write_file(path: &Path, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    let mut handle =
        std::fs::File::create(path).into_diagnostic().wrap_err_with(|| format!("cannot create {}", path.display()))?;
    write(&mut handle)
        .and_then(|()| handle.sync_all().into_diagnostic())
        .wrap_err_with(|| format!("cannot write {}", path.display()))
}

/// Holds a run before its swap (or a file's rename) for the tests of what
/// happens meanwhile: for the milliseconds `PAUSE_HOOK` says, or until the
/// file `RELEASE_HOOK` names appears, whichever comes first.
fn pause_for_tests() {
    let Some(ms) = std::env::var(PAUSE_HOOK).ok().and_then(|v| v.parse::<u64>().ok()) else { return };
    let release = std::env::var_os(RELEASE_HOOK).map(std::path::PathBuf::from);
    let until = std::time::Instant::now() + std::time::Duration::from_millis(ms);
    while std::time::Instant::now() < until && !release.as_ref().is_some_and(|r| r.exists()) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

fn move_into_place(temp: &Path, out: &Path, parent: &Path, name: &str) -> Result<()> {
    let moved = |e: std::io::Error| miette!("cannot move the build into {}: {e}", out.display());
    if std::fs::symlink_metadata(out).is_err() {
        return std::fs::rename(temp, out).map_err(moved);
    }
    if exchange(temp, out) {
        // `temp` now holds the previous output.
        let _ = std::fs::remove_dir_all(temp);
        return Ok(());
    }
    let old = parent.join(format!(".{name}.old-{}", std::process::id()));
    std::fs::rename(out, &old).map_err(moved)?;
    if let Err(e) = std::fs::rename(temp, out) {
        let _ = std::fs::rename(&old, out);
        return Err(moved(e));
    }
    let _ = std::fs::remove_dir_all(&old);
    Ok(())
}

/// Swaps two folders in one step, where the system can.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> bool {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).is_ok()
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> bool {
    false
}

/// Moves the folder `from` to `to`, which must not exist: where the system
/// can tell, not even as an empty folder made meanwhile.
pub fn move_new_folder(from: &Path, to: &Path) -> Result<()> {
    let moved = rename_without_replacing(from, to);
    moved.into_diagnostic().wrap_err_with(|| format!("cannot create {}", to.display()))
}

#[cfg(target_os = "linux")]
fn rename_without_replacing(from: &Path, to: &Path) -> std::io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    match renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
        // A file system that cannot refuse to replace: the caller checked.
        Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => std::fs::rename(from, to),
        other => other.map_err(std::io::Error::from),
    }
}

#[cfg(not(target_os = "linux"))]
fn rename_without_replacing(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::rename(from, to)
}

/// Writes a new file atomically and never over another: the text is
/// written and flushed beside it, then linked in under its name, which fails
/// if a file of that name appeared meanwhile.
pub fn create_file(path: &Path, text: &str) -> Result<()> {
    let (dir, name) = split(path)?;
    let temp = dir.join(format!(".{name}.cardsmith-{}", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&temp)?;
        std::io::Write::write_all(&mut file, text.as_bytes())?;
        file.sync_all()?;
        std::fs::hard_link(&temp, path)
    })();
    let _ = std::fs::remove_file(&temp);
    written.into_diagnostic().wrap_err_with(|| format!("cannot write {}", path.display()))?;
    let _ = std::fs::File::open(&dir).and_then(|folder| folder.sync_all());
    Ok(())
}

/// Writes a file whole and atomically, new or in place of the file of that
/// name: the bytes are written and flushed beside it, then renamed over it,
/// so a reader sees the old file or the new one, never part of either.
pub fn write_whole_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let (dir, name) = split(path)?;
    if std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_dir()) {
        return Err(miette!("cannot write {}: it is a folder", path.display()));
    }
    let temp = dir.join(format!(".{name}.cardsmith-{}", std::process::id()));
    // A file left by a killed run with the same process id is stale.
    let _ = std::fs::remove_file(&temp);
    let written = (|| -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written.into_diagnostic().wrap_err_with(|| format!("cannot write {}", path.display()))?;
    let _ = std::fs::File::open(&dir).and_then(|folder| folder.sync_all());
    Ok(())
}

/// What became of a file [`replace_file`] was asked to replace.
#[derive(Debug, PartialEq, Eq)]
pub enum Replaced {
    /// The file holds the new text.
    Yes,
    /// The file no longer held what was read (it was saved meanwhile), so
    /// writing would have lost that edit: it is left as it is.
    ChangedMeanwhile,
    /// The file has this many names (hard links).  A replacement would have
    /// only the one name, the others keeping the old text, so it is left as
    /// it is.
    HardLinked(u64),
}

impl Replaced {
    /// The warning for a file left as it is: `name` is the file as shown,
    /// `doing` what was being done to it (`formatted`) and `command` the
    /// command to run again (`fmt`).
    pub fn warning(&self, name: &str, doing: &str, command: &str) -> Option<String> {
        match self {
            Replaced::Yes => None,
            Replaced::ChangedMeanwhile => Some(format!(
                "warning: {name} changed while it was being {doing}; left as it is — run `cardsmith {command}` again"
            )),
            Replaced::HardLinked(links) => Some(format!(
                "warning: {name} has {links} hard links; left as it is: replacing it would part it from its other \
                 names, which would keep the old text\n  help: give it a file of its own (`cp {name} {name}.new && \
                 mv {name}.new {name}`), then run `cardsmith {command}` again"
            )),
        }
    }
}

/// Replaces one file's contents atomically, keeping what the file is: a
/// link stays a link and its target gets the new contents, and the target's
/// permissions (and, where allowed, owner) stay as they were.  The text is
/// written and flushed to a temporary file in the target's folder, then
/// renamed over the target, and the folder is flushed so the rename lasts.
///
/// `read` is what the file held when it was read: the file is replaced only
/// if it still holds exactly that just before the rename, so an edit saved
/// meanwhile is never lost (an edit in the instant between that comparison
/// and the rename is beyond any check).  A file with several hard links is
/// not replaced either, as the rename would split them.
pub fn replace_file(path: &Path, read: &[u8], text: &str) -> Result<Replaced> {
    let target = path.canonicalize().into_diagnostic().wrap_err_with(|| format!("cannot write {}", path.display()))?;
    if let Some(links) = hard_links(&target).filter(|links| *links > 1) {
        return Ok(Replaced::HardLinked(links));
    }
    let (dir, name) = split(&target)?;
    let temp = dir.join(format!(".{name}.cardsmith-{}", std::process::id()));
    let written = write_beside(&target, &temp, text.as_bytes()).and_then(|()| {
        pause_for_tests();
        if !super::read::holds(&target, read) {
            return Ok(Replaced::ChangedMeanwhile);
        }
        std::fs::rename(&temp, &target)
            .into_diagnostic()
            .wrap_err_with(|| format!("cannot replace {}", target.display()))?;
        Ok(Replaced::Yes)
    });
    if !matches!(written, Ok(Replaced::Yes)) {
        let _ = std::fs::remove_file(&temp);
        return written;
    }
    // The rename is done; a folder that cannot be flushed only loses it to a crash.
    let _ = std::fs::File::open(&dir).and_then(|folder| folder.sync_all());
    Ok(Replaced::Yes)
}

/// How many names (hard links) a file has, where the system says.
#[cfg(unix)]
fn hard_links(path: &Path) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|meta| meta.nlink())
}

#[cfg(not(unix))]
fn hard_links(_: &Path) -> Option<u64> {
    None
}

/// Writes `bytes` to the new file `temp`, flushed, with the permissions and
/// owner of `target`.
fn write_beside(target: &Path, temp: &Path, bytes: &[u8]) -> Result<()> {
    let meta =
        std::fs::metadata(target).into_diagnostic().wrap_err_with(|| format!("cannot read {}", target.display()))?;
    // Renaming over a file needs only its folder to be writable; a file that
    // could not be written in place is left alone, as a plain write would.
    std::fs::OpenOptions::new()
        .write(true)
        .open(target)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot write {}", target.display()))?;
    // A file left by a killed run with the same process id is stale.
    let _ = std::fs::remove_file(temp);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        // Readable by no one else until it has the target's permissions.
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(temp).into_diagnostic().wrap_err_with(|| format!("cannot write {}", temp.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Only an administrator may give a file away; anyone else keeps the
        // file as theirs, which is all they could do by hand.
        let _ = std::os::unix::fs::fchown(&file, Some(meta.uid()), Some(meta.gid()));
    }
    file.write_all(bytes)
        .and_then(|()| file.set_permissions(meta.permissions()))
        .and_then(|()| file.sync_all())
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot write {}", temp.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_file_is_written_new_or_in_place_and_nothing_else_is_left() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("report.json");
        write_whole_file(&path, b"first").expect("written");
        write_whole_file(&path, b"second").expect("replaced");
        assert_eq!(std::fs::read(&path).expect("read"), b"second");
        assert_eq!(std::fs::read_dir(dir.path()).expect("folder").count(), 1);
        let folder = dir.path().join("folder");
        std::fs::create_dir(&folder).expect("folder");
        assert!(write_whole_file(&folder, b"x").is_err());
        assert_eq!(std::fs::read_dir(dir.path()).expect("folder").count(), 2);
    }

    #[test]
    fn a_file_that_no_longer_holds_what_was_read_is_left_as_it_is() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("a.cards");
        std::fs::write(&path, "saved meanwhile").expect("write");
        assert_eq!(replace_file(&path, b"as read", "formatted").expect("no error"), Replaced::ChangedMeanwhile);
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "saved meanwhile");
        // Only the file itself is left: the temporary file is gone.
        assert_eq!(std::fs::read_dir(dir.path()).expect("folder").count(), 1);
        // A longer or shorter file is changed too.
        for read in [&b"saved"[..], b"saved meanwhile, and more"] {
            assert_eq!(replace_file(&path, read, "formatted").expect("no error"), Replaced::ChangedMeanwhile);
        }
        assert_eq!(replace_file(&path, b"saved meanwhile", "formatted").expect("written"), Replaced::Yes);
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "formatted");
    }
}
