//! The page words a pass snapshot's problem with the catalogue's `snapshot-<kind key>`
//! (`crates/app/i18n/<lang>/snapshot.ftl`) and the problem's arguments; the CLI's `report`
//! prints the checks' English `message`. These tests hold the two together: a pass dump with
//! one damaged snapshot per [`SnapshotProblemKind`] goes through `report`, and every problem it
//! lists (`snapshot_problem_details`, what the page gets) says itself in the English catalogue
//! exactly as its `message`, and in the Chinese one without a missing argument.

#![cfg(test)]
#![allow(clippy::expect_used)] // a test fails loudly on a setup error

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use pypto_formats::{SnapshotProblemKind, WarningArg};
use pypto_protocol::pass_trace::SnapshotProblem;
use serde_json::Value;

/// A snapshot's text that makes problem `kind` (and no other, except that an undecodable
/// byte is also a character the syntax check sees as U+FFFD).
fn case(kind: SnapshotProblemKind) -> Vec<u8> {
    use SnapshotProblemKind as K;
    let text = match kind {
        K::InvalidUtf8 => return b"x = '\xff\xfe'\n".to_vec(),
        K::NullByte => "x = 1\n\0\0\0",
        K::UnterminatedString => "x = 1\ny = 'abc\n",
        K::UnterminatedTripleQuotedString => "x = \"\"\"doc\nmore\n",
        K::NeverClosed => "x = pl.tile.load(a, [0, 0],\n",
        K::MismatchedBracket => "x = (1]\n",
        K::MismatchedBracketOnLine => "x = (\n  1]\n",
        K::UnmatchedBracket => "x = 1}\n",
        K::TooManyNested => return format!("x = {}0{}\n", "(".repeat(300), ")".repeat(300)).into_bytes(),
        K::ExpectedIndentedBlock => "def f():\nx = 1\n",
        K::UnexpectedIndent => "x = 1\n    y = 2\n",
        K::UnindentMismatch => "if x:\n    a = 1\n  b = 2\n",
        K::StatementEndsWith => "x = a and\ny = 2\n",
        K::ExpectedColon => "def f(x)\n    pass\n",
        K::DecoratorWithoutDef => "@dec\nx = 1\n",
        K::KeywordAfterDot => "x = pl.if(1)\n",
        K::InvalidCharacter => "x = $y\n",
        K::CharacterAfterContinuation => "x = 1 \\ # c\n",
        K::NonPrintableCharacter => "x = 1\u{3000}\n",
        K::CutNothingFollows => "x = 1\ny: pl.Tile[[16], pl.FP32] =",
        K::CutLineContinuation => "x = 1 \\\n",
        K::CutExpectedColon => "class P:\n    def f(self) -> pl.Tensor[[16], pl.FP32]\n",
        K::CutDecorator => "class P:\n    @pl.function(type=1)\n",
        K::CutKeywordAfterDot => "x = pl.yield",
        K::EmptyFile => "",
        K::EndsMidLine => "x = 1\ny = pl.tile.lo",
    };
    text.as_bytes().to_vec()
}

/// A pass dump with an intact frontend and one snapshot per kind (`NN_after_<Kind>.py`), as
/// `report` lists it: each problem whole (kind, arguments, English message).
fn problems_of_every_kind() -> Vec<SnapshotProblem> {
    // One folder per call: the tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pypto-snapshot-words-{}-{call}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dump = dir.join("case/passes_dump");
    std::fs::create_dir_all(&dump).expect("create the dump");
    std::fs::write(dump.join("00_frontend.py"), "x = 1\n").expect("write");
    for (i, &kind) in SnapshotProblemKind::ALL.iter().enumerate() {
        std::fs::write(dump.join(format!("{:02}_after_{kind:?}.py", i + 1)), case(kind)).expect("write");
    }
    let report = crate::report::report_json(&dir, "cases");
    let _ = std::fs::remove_dir_all(&dir);
    let report = report.expect("report");
    let ds = report.get("datasets").and_then(Value::as_array).and_then(|d| d.first()).expect("the dump");
    let details = ds.get("snapshot_problem_details").cloned().expect("snapshot_problem_details");
    serde_json::from_value(details).expect("snapshot problems")
}

/// The page's catalogue `snapshot.ftl` in `lang`, set up as the page sets it up.
fn catalogue(lang: &str, text: &str) -> FluentBundle<FluentResource> {
    let tag: unic_langid::LanguageIdentifier = lang.parse().expect("language tag");
    let mut bundle = FluentBundle::new(vec![tag]);
    bundle.set_use_isolating(false);
    bundle.add_resource(FluentResource::try_new(text.to_owned()).expect("the catalogue parses")).expect("no duplicate ids");
    bundle
}

/// The problem said by `bundle`, and Fluent's complaints (a missing argument or message).
fn say(bundle: &FluentBundle<FluentResource>, p: &SnapshotProblem) -> Result<String, String> {
    let kind = p.kind.ok_or_else(|| format!("{}: no kind", p.message))?;
    let id = format!("snapshot-{}", kind.key());
    let pattern = bundle.get_message(&id).and_then(|m| m.value()).ok_or_else(|| format!("no message {id}"))?;
    let mut args = FluentArgs::new();
    for (name, arg) in &p.args {
        match arg {
            #[allow(clippy::cast_precision_loss)] // small counts
            WarningArg::Count(n) => args.set(name.clone(), FluentValue::from(*n as f64)),
            WarningArg::Text(t) => args.set(name.clone(), FluentValue::from(t.clone())),
        }
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&args), &mut errors).into_owned();
    if errors.is_empty() {
        Ok(text)
    } else {
        Err(format!("{id}: {errors:?} (args {:?})", p.args))
    }
}

/// Every problem's kind in the English catalogue with its arguments is the check's English
/// `message`, word for word; in Chinese it is Chinese and every argument is filled.
fn check_catalogues(en_text: &str, problems: &[SnapshotProblem]) -> Vec<String> {
    let en = catalogue("en", en_text);
    let zh = catalogue("zh-CN", include_str!("../../app/i18n/zh-CN/snapshot.ftl"));
    let mut out = Vec::new();
    for p in problems {
        match say(&en, p) {
            Ok(text) if text == p.message => {}
            Ok(text) => out.push(format!("{}: the catalogue says\n  {text}\nthe check says\n  {}", p.file, p.message)),
            Err(e) => out.push(format!("en: {}: {e}", p.file)),
        }
        match say(&zh, p) {
            Ok(text) if text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) => {}
            Ok(text) => out.push(format!("zh-CN: {}: not Chinese: {text}", p.file)),
            Err(e) => out.push(format!("zh-CN: {}: {e}", p.file)),
        }
    }
    out
}

const EN: &str = include_str!("../../app/i18n/en/snapshot.ftl");

#[test]
fn the_page_catalogue_says_every_snapshot_problem_as_its_message() {
    let problems = problems_of_every_kind();
    // Each kind's case makes that kind, in its own snapshot.
    for (i, &kind) in SnapshotProblemKind::ALL.iter().enumerate() {
        let file = format!("{:02}_after_{kind:?}.py", i + 1);
        let kinds: Vec<_> = problems.iter().filter(|p| p.file == file).map(|p| p.kind).collect();
        assert!(kinds.contains(&Some(kind)), "{file}: got {kinds:?}");
    }
    assert!(problems.iter().all(|p| p.kind.is_some()), "{problems:#?}");
    let wrong = check_catalogues(EN, &problems);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The test above fails when one English sentence of the catalogue is changed.
#[test]
fn a_changed_english_sentence_is_caught() {
    let problems = problems_of_every_kind();
    for (from, to) in [
        ("= unexpected indent\n", "= unexpected indentation\n"),
        ("-snapshot-cut = the file ends inside a statement (cut?)", "-snapshot-cut = the file ends inside a statement"),
        ("] bytes\n", "] byte(s)\n"),
    ] {
        assert!(EN.contains(from), "{from}");
        let wrong = check_catalogues(&EN.replace(from, to), &problems);
        assert!(!wrong.is_empty(), "changing {from:?} went unnoticed");
    }
}

/// The details carry the arguments the sentence names, typed (`crates/cli/tests/cli.rs` checks
/// that the report's `snapshot_problems` rows stay file, position and English message).
#[test]
fn the_details_carry_typed_arguments() {
    let problems = problems_of_every_kind();
    let utf8 = problems.iter().find(|p| p.kind == Some(SnapshotProblemKind::InvalidUtf8)).expect("invalid UTF-8");
    assert_eq!(utf8.message, "invalid UTF-8 at byte offset 5 (0xFF; 2 undecodable bytes in the file, shown as U+FFFD)");
    let text = |s: &str| WarningArg::Text(s.to_owned());
    assert_eq!(
        utf8.args,
        vec![("offset".to_owned(), text("5")), ("byte".to_owned(), text("0xFF")), ("count".to_owned(), WarningArg::Count(2))]
    );
}
