//! Index blocks (`index.blocks.read_only`, `read_only_allow_delete`, `read`, `write`,
//! `metadata`): the operation levels each refuses and OpenSearch's `cluster_block_exception`,
//! worded and ordered as its `ClusterBlockException` prints it.

use crate::error::{Error, ErrorKind, Result};
use crate::index::index_service::IndexMeta;
use serde_json::Value;
use std::collections::BTreeMap;

/// What an operation does to an index, as OpenSearch's `ClusterBlockLevel` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Searches and document reads.
    Read,
    /// Document writes.
    Write,
    /// Reading the index's metadata: mappings, settings, aliases, stats, segments.
    MetadataRead,
    /// Changing it: mappings, settings, aliases, force merges, blocks, deletion.
    MetadataWrite,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    ReadOnlyAllowDelete,
    Metadata,
    Write,
    Read,
    ReadOnly,
}

impl Block {
    /// Every block, in the order a Java `HashSet` of them iterates (by their ids' hashes), which
    /// is the order OpenSearch's messages list an index's blocks in.
    pub const ALL: [Block; 5] = [
        Block::ReadOnlyAllowDelete,
        Block::Metadata,
        Block::Write,
        Block::Read,
        Block::ReadOnly,
    ];

    pub fn setting(self) -> &'static str {
        match self {
            Block::ReadOnlyAllowDelete => "index.blocks.read_only_allow_delete",
            Block::Metadata => "index.blocks.metadata",
            Block::Write => "index.blocks.write",
            Block::Read => "index.blocks.read",
            Block::ReadOnly => "index.blocks.read_only",
        }
    }

    /// `ClusterBlock`'s `status/id/description`, as its exception prints it.
    fn text(self) -> &'static str {
        match self {
            Block::ReadOnlyAllowDelete => "TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block",
            Block::Metadata => "FORBIDDEN/9/index metadata (api)",
            Block::Write => "FORBIDDEN/8/index write (api)",
            Block::Read => "FORBIDDEN/7/index read (api)",
            Block::ReadOnly => "FORBIDDEN/5/index read-only (api)",
        }
    }

    /// How the cluster state lists the block: its id, and `description`, `retryable` and
    /// `levels` as `ClusterBlock.toXContent` prints them.
    pub fn state_entry(self) -> (String, Value) {
        let mut parts = self.text().splitn(3, '/');
        let (_status, id, description) = (parts.next(), parts.next(), parts.next());
        let levels: Vec<&str> = self
            .levels()
            .iter()
            .map(|l| match l {
                Level::Read => "read",
                Level::Write => "write",
                Level::MetadataRead => "metadata_read",
                Level::MetadataWrite => "metadata_write",
            })
            .collect();
        (
            id.unwrap_or_default().to_string(),
            serde_json::json!({"description": description, "retryable": false, "levels": levels}),
        )
    }

    /// Whether the block refuses operations at `level`.
    pub fn refuses(self, level: Level) -> bool {
        self.levels().contains(&level)
    }

    fn levels(self) -> &'static [Level] {
        use Level::*;
        match self {
            Block::ReadOnlyAllowDelete | Block::ReadOnly => &[Write, MetadataWrite],
            Block::Metadata => &[MetadataRead, MetadataWrite],
            Block::Write => &[Write],
            Block::Read => &[Read],
        }
    }

    /// The block `PUT /<index>/_block/<name>` adds (`APIBlock`); `read_only_allow_delete` is
    /// the disk watermark's, refused there as internal.
    pub fn from_api_name(name: &str) -> Result<Block> {
        match name {
            "read_only" => Ok(Block::ReadOnly),
            "read" => Ok(Block::Read),
            "write" => Ok(Block::Write),
            "metadata" => Ok(Block::Metadata),
            "read_only_allow_delete" => Err(Error::new(
                ErrorKind::ActionRequestValidation,
                "Validation Failed: 1: read_only_allow_delete block is for internal use only;",
            )),
            other => Err(Error::illegal_argument(format!(
                "No block found with name {other}"
            ))),
        }
    }
}

/// The blocks set on an index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Blocks(u8);

impl Blocks {
    /// The blocks of an index's flat settings, each `true` or `false` as OpenSearch's boolean
    /// settings take them.
    pub fn from_settings(flat: &BTreeMap<String, Value>) -> Result<Blocks> {
        let mut bits = 0;
        for (i, b) in Block::ALL.iter().enumerate() {
            match flat.get(b.setting()).and_then(Value::as_str) {
                None | Some("false") => {}
                Some("true") => bits |= 1 << i,
                Some(v) => {
                    return Err(Error::illegal_argument(format!(
                        "Failed to parse value [{v}] as only [true] or [false] are allowed."
                    )))
                }
            }
        }
        Ok(Blocks(bits))
    }

    pub fn has(self, block: Block) -> bool {
        Block::ALL
            .iter()
            .position(|b| *b == block)
            .is_some_and(|i| self.0 & (1 << i) != 0)
    }

    /// The blocks set, in the order OpenSearch lists them.
    pub fn all(self) -> impl Iterator<Item = Block> {
        Block::ALL.into_iter().filter(move |b| self.has(*b))
    }

    /// The blocks that refuse operations at `level`, in message order.
    fn at(self, level: Level) -> Vec<Block> {
        Block::ALL
            .into_iter()
            .filter(|b| self.has(*b) && b.refuses(level))
            .collect()
    }
}

/// The indices `level` is refused on and by which blocks, in the order of the Java `HashMap`
/// of index names OpenSearch builds (`ClusterBlocks.indicesBlockedException`).
fn blocked<'a>(
    metas: impl IntoIterator<Item = &'a IndexMeta>,
    level: Level,
    keep: impl Fn(Block) -> bool,
) -> Vec<(String, Vec<Block>)> {
    let mut out: Vec<(String, Vec<Block>)> = Vec::new();
    for m in metas {
        let blocks: Vec<Block> = m
            .settings
            .blocks
            .at(level)
            .into_iter()
            .filter(|b| keep(*b))
            .collect();
        if !blocks.is_empty() && !out.iter().any(|(n, _)| *n == m.name) {
            out.push((m.name.clone(), blocks));
        }
    }
    crate::util::java_hash::hash_order(&mut out);
    out
}

/// OpenSearch's exception for these blocked indices: every block listed per index; 429 when
/// only the retryable disk-watermark block refuses, else 403.
fn exception(blocked: &[(String, Vec<Block>)]) -> Error {
    let reason: String = blocked
        .iter()
        .map(|(name, blocks)| {
            let texts: Vec<&str> = blocks.iter().map(|b| b.text()).collect();
            format!("index [{name}] blocked by: [{}];", texts.join(", "))
        })
        .collect();
    let only_retryable = blocked
        .iter()
        .flat_map(|(_, b)| b)
        .all(|b| *b == Block::ReadOnlyAllowDelete);
    let e = Error::new(ErrorKind::ClusterBlock, reason);
    if only_retryable {
        e.with_status(429)
    } else {
        e
    }
}

/// Refuses an operation at `level` on any of `metas` that a block holds, naming them all.
pub fn check<'a>(metas: impl IntoIterator<Item = &'a IndexMeta>, level: Level) -> Result<()> {
    let found = blocked(metas, level, |_| true);
    if found.is_empty() {
        Ok(())
    } else {
        Err(exception(&found))
    }
}

/// [`check`], with a closed index held by OpenSearch's `index closed` block (reads and writes),
/// for the one API that reaches a closed index's data without refusing it first (`_validate`).
pub fn check_with_closed<'a>(
    metas: impl IntoIterator<Item = &'a IndexMeta>,
    level: Level,
) -> Result<()> {
    let metas: Vec<&IndexMeta> = metas.into_iter().collect();
    check(metas.iter().copied(), level)?;
    let mut closed: Vec<(String, ())> = metas
        .iter()
        .filter(|m| m.is_closed() && matches!(level, Level::Read | Level::Write))
        .map(|m| (m.name.clone(), ()))
        .collect();
    if closed.is_empty() {
        return Ok(());
    }
    crate::util::java_hash::hash_order(&mut closed);
    let reason: String = closed
        .iter()
        .map(|(name, _)| format!("index [{name}] blocked by: [FORBIDDEN/4/index closed];"))
        .collect();
    Err(Error::new(ErrorKind::ClusterBlock, reason))
}

/// Refuses a search at `level` on the first of `metas` a block holds: a search checks its
/// indices one at a time and stops at the first.
pub fn check_first<'a>(metas: impl IntoIterator<Item = &'a IndexMeta>, level: Level) -> Result<()> {
    match blocked(metas, level, |_| true).first() {
        Some(first) => Err(exception(std::slice::from_ref(first))),
        None => Ok(()),
    }
}

/// Refuses deleting any of `metas` a metadata-write block holds, but for the disk watermark's,
/// which lets an index be deleted to free space (`indicesAllowReleaseResources`).
pub fn check_delete<'a>(metas: impl IntoIterator<Item = &'a IndexMeta>) -> Result<()> {
    let found = blocked(metas, Level::MetadataWrite, |b| {
        b != Block::ReadOnlyAllowDelete
    });
    if found.is_empty() {
        Ok(())
    } else {
        Err(exception(&found))
    }
}

/// Whether a settings update is one OpenSearch lets through blocks, so a block can be lifted:
/// exactly one setting, and that one `index.blocks.metadata`, `read_only` or
/// `read_only_allow_delete`.
pub fn lifts_block(changes: &BTreeMap<String, Value>) -> bool {
    let lifting = [Block::Metadata, Block::ReadOnly, Block::ReadOnlyAllowDelete];
    changes.len() == 1 && lifting.iter().any(|b| changes.contains_key(b.setting()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::settings::IndexSettings;

    fn meta(name: &str, blocks: &[Block]) -> IndexMeta {
        let mut flat = BTreeMap::new();
        for b in blocks {
            flat.insert(b.setting().to_string(), Value::from("true"));
        }
        IndexMeta {
            name: name.into(),
            uuid: "u".into(),
            settings: IndexSettings::from_flat(flat).unwrap(),
            mapping: crate::index::mapping::Mapping::empty(),
            aliases: Default::default(),
            state: Default::default(),
        }
    }

    #[test]
    fn lists_blocks_in_opensearchs_order_and_indices_in_hash_order() {
        let c1 = meta(
            "c1",
            &[Block::ReadOnly, Block::Write, Block::ReadOnlyAllowDelete],
        );
        let c4 = meta("c4", &[Block::ReadOnly, Block::Metadata]);
        let e = check([&c1, &c4], Level::MetadataWrite).unwrap_err();
        assert_eq!(
            e.reason,
            "index [c4] blocked by: [FORBIDDEN/9/index metadata (api), FORBIDDEN/5/index read-only (api)];index [c1] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block, FORBIDDEN/5/index read-only (api)];"
        );
        assert_eq!(e.status(), 403);
        assert_eq!(e.type_name(), "cluster_block_exception");
        let e = check([&c1], Level::Write).unwrap_err();
        assert!(e.reason.contains("FORBIDDEN/8/index write (api)"));
    }

    #[test]
    fn only_the_disk_watermark_block_is_429() {
        let b = meta("b", &[Block::ReadOnlyAllowDelete]);
        assert_eq!(check([&b], Level::Write).unwrap_err().status(), 429);
        assert!(check([&b], Level::Read).is_ok());
        assert!(check_delete([&b]).is_ok());
    }

    #[test]
    fn levels_follow_the_blocks() {
        let w = meta("w", &[Block::Write]);
        assert!(check([&w], Level::Write).is_err());
        assert!(check([&w], Level::MetadataWrite).is_ok());
        assert!(check_delete([&w]).is_ok());
        let m = meta("m", &[Block::Metadata]);
        assert!(check([&m], Level::MetadataRead).is_err());
        assert!(check([&m], Level::Read).is_ok());
        assert!(check_delete([&m]).is_err());
        let r = meta("r", &[Block::Read]);
        let c3 = meta("c3", &[Block::Read]);
        let c2 = meta("c2", &[Block::Read]);
        assert!(check([&r], Level::Write).is_ok());
        // A search stops at the first blocked index in hash order.
        assert_eq!(
            check_first([&c2, &c3], Level::Read).unwrap_err().reason,
            "index [c3] blocked by: [FORBIDDEN/7/index read (api)];"
        );
    }

    #[test]
    fn block_values_are_strict_booleans() {
        let mut flat = BTreeMap::new();
        flat.insert("index.blocks.write".to_string(), Value::from("TRUE"));
        assert_eq!(
            Blocks::from_settings(&flat).unwrap_err().reason,
            "Failed to parse value [TRUE] as only [true] or [false] are allowed."
        );
    }

    #[test]
    fn one_block_setting_alone_may_lift_blocks() {
        let one = |k: &str| BTreeMap::from([(k.to_string(), Value::from("false"))]);
        assert!(lifts_block(&one("index.blocks.read_only")));
        assert!(lifts_block(&one("index.blocks.metadata")));
        assert!(!lifts_block(&one("index.blocks.write")));
        let mut two = one("index.blocks.read_only");
        two.insert("index.refresh_interval".into(), Value::from("1s"));
        assert!(!lifts_block(&two));
    }
}
