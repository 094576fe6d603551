//! The per-shard write-ahead log. A write is acknowledged only after its record is on disk
//! (`sync`). Records carry a CRC, so a torn or corrupt tail is detected and dropped at replay.
//!
//! File layout: `translog-<generation>.tlog`, a sequence of `[len u32][crc32 u32][payload]`.
//! A refresh commits tantivy with the max sequence number it holds, then rolls to a new
//! generation and deletes the older ones; replay skips records at or below the committed number.

use crate::error::Result;
use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
pub enum Operation {
    Index {
        id: String,
        routing: Option<String>,
        /// Shared with the live version map: logging a write does not copy its source.
        source: Arc<Vec<u8>>,
    },
    Delete {
        id: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub seq_no: i64,
    pub primary_term: i64,
    pub version: i64,
    pub op: Operation,
}

impl Record {
    fn encode(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&[0u8; 8]);
        out.extend_from_slice(&self.seq_no.to_le_bytes());
        out.extend_from_slice(&self.primary_term.to_le_bytes());
        out.extend_from_slice(&self.version.to_le_bytes());
        let put = |out: &mut Vec<u8>, b: &[u8]| {
            out.extend_from_slice(&(b.len() as u32).to_le_bytes());
            out.extend_from_slice(b);
        };
        match &self.op {
            Operation::Index {
                id,
                routing,
                source,
            } => {
                out.push(0);
                put(out, id.as_bytes());
                match routing {
                    Some(r) => {
                        out.push(1);
                        put(out, r.as_bytes());
                    }
                    None => out.push(0),
                }
                put(out, &source[..]);
            }
            Operation::Delete { id } => {
                out.push(1);
                put(out, id.as_bytes());
            }
        }
        let payload_len = (out.len() - start - 8) as u32;
        let crc = crc32fast::hash(&out[start + 8..]);
        out[start..start + 4].copy_from_slice(&payload_len.to_le_bytes());
        out[start + 4..start + 8].copy_from_slice(&crc.to_le_bytes());
    }

    fn decode(p: &[u8]) -> Option<Record> {
        let mut c = Cursor { p, pos: 0 };
        let seq_no = c.i64()?;
        let primary_term = c.i64()?;
        let version = c.i64()?;
        let op = match c.byte()? {
            0 => {
                let id = String::from_utf8(c.field()?).ok()?;
                let routing = if c.byte()? == 1 {
                    Some(String::from_utf8(c.field()?).ok()?)
                } else {
                    None
                };
                let source = Arc::new(c.field()?);
                Operation::Index {
                    id,
                    routing,
                    source,
                }
            }
            1 => Operation::Delete {
                id: String::from_utf8(c.field()?).ok()?,
            },
            _ => return None,
        };
        Some(Record {
            seq_no,
            primary_term,
            version,
            op,
        })
    }
}

struct Cursor<'a> {
    p: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let s = self.p.get(self.pos..self.pos + n)?;
        self.pos += n;
        Some(s)
    }
    fn byte(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn field(&mut self) -> Option<Vec<u8>> {
        let len = u32::from_le_bytes(self.take(4)?.try_into().ok()?) as usize;
        self.take(len).map(<[u8]>::to_vec)
    }
}

/// The most one `write` call hands the kernel (see `append`).
const WRITE_PIECE: usize = 256 * 1024;

pub struct Translog {
    dir: PathBuf,
    generation: u64,
    file: File,
    buf: Vec<u8>,
}

fn gen_path(dir: &Path, generation: u64) -> PathBuf {
    dir.join(format!("translog-{generation}.tlog"))
}

fn generations(dir: &Path) -> Result<Vec<u64>> {
    let mut gens: Vec<u64> = fs::read_dir(dir)?
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            name.strip_prefix("translog-")?
                .strip_suffix(".tlog")?
                .parse()
                .ok()
        })
        .collect();
    gens.sort_unstable();
    Ok(gens)
}

impl Translog {
    /// Opens the log in `dir`, returning it with every intact record found, in order. A torn or
    /// corrupt tail is truncated away so new records never follow garbage.
    pub fn open(dir: &Path) -> Result<(Translog, Vec<Record>)> {
        fs::create_dir_all(dir)?;
        let gens = generations(dir)?;
        let mut records = Vec::new();
        for &g in &gens {
            let path = gen_path(dir, g);
            let (mut recs, good_len, total_len) = read_file(&path)?;
            if good_len < total_len {
                log::warn!(
                    "translog [{}]: dropping {} bytes of torn or corrupt tail",
                    path.display(),
                    total_len - good_len
                );
                let f = OpenOptions::new().write(true).open(&path)?;
                f.set_len(good_len)?;
                f.sync_all()?;
            }
            records.append(&mut recs);
        }
        let generation = gens.last().copied().unwrap_or(1);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(gen_path(dir, generation))?;
        crate::util::fs::sync_dir(dir)?;
        Ok((
            Translog {
                dir: dir.to_path_buf(),
                generation,
                file,
                buf: Vec::with_capacity(64 * 1024),
            },
            records,
        ))
    }

    /// Appends records to the OS (not yet durable: call `sync`); returns the bytes written.
    pub fn append(&mut self, records: &[Record]) -> Result<u64> {
        self.buf.clear();
        for r in records {
            r.encode(&mut self.buf);
        }
        // In pieces: each write returns to user space, where the kernel can switch to a woken
        // request thread. One multi-megabyte write copies into the page cache in one stretch of
        // kernel time, which a kernel without full preemption does not interrupt (measured:
        // a woken thread's p99 wait behind 16 MB writes 1.6 ms, behind 256 KB writes 0.3 ms).
        for piece in self.buf.chunks(WRITE_PIECE) {
            self.file.write_all(piece)?;
        }
        Ok(self.buf.len() as u64)
    }

    /// A handle to fsync outside the shard lock, so concurrent writers share one sync.
    pub fn sync_handle(&self) -> Result<File> {
        Ok(self.file.try_clone()?)
    }

    pub fn sync(&self) -> Result<()> {
        self.file.sync_data()?;
        Ok(())
    }

    /// Starts a new generation; everything before it is in a tantivy commit, so older files go.
    pub fn roll_and_trim(&mut self) -> Result<()> {
        self.file.sync_data()?;
        let next = self.generation + 1;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(gen_path(&self.dir, next))?;
        crate::util::fs::sync_dir(&self.dir)?;
        let old = self.generation;
        self.file = file;
        self.generation = next;
        for g in generations(&self.dir)? {
            if g <= old {
                fs::remove_file(gen_path(&self.dir, g))?;
            }
        }
        crate::util::fs::sync_dir(&self.dir)?;
        Ok(())
    }

    pub fn size_in_bytes(&self) -> u64 {
        crate::util::fs::dir_size(&self.dir)
    }
}

/// Reads intact records; returns them with the length of the intact prefix and the file length.
fn read_file(path: &Path) -> Result<(Vec<Record>, u64, u64)> {
    let mut bytes = Vec::new();
    BufReader::new(File::open(path)?).read_to_end(&mut bytes)?;
    let mut pos = 0usize;
    let mut out = Vec::new();
    while pos + 8 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[pos..pos + 4].try_into().expect("4 bytes")) as usize;
        let crc = u32::from_le_bytes(bytes[pos + 4..pos + 8].try_into().expect("4 bytes"));
        let Some(payload) = bytes.get(pos + 8..pos + 8 + len) else {
            break;
        };
        if crc32fast::hash(payload) != crc {
            break;
        }
        let Some(rec) = Record::decode(payload) else {
            break;
        };
        out.push(rec);
        pos += 8 + len;
    }
    Ok((out, pos as u64, bytes.len() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(seq: i64) -> Record {
        Record {
            seq_no: seq,
            primary_term: 1,
            version: 1,
            op: Operation::Index {
                id: format!("id{seq}"),
                routing: if seq % 2 == 0 { Some("r".into()) } else { None },
                source: Arc::new(b"{\"a\":1}".to_vec()),
            },
        }
    }

    #[test]
    fn round_trip_and_torn_tail() {
        let d = tempfile::tempdir().unwrap();
        {
            let (mut t, recs) = Translog::open(d.path()).unwrap();
            assert!(recs.is_empty());
            t.append(&[
                rec(0),
                rec(1),
                Record {
                    seq_no: 2,
                    primary_term: 1,
                    version: 2,
                    op: Operation::Delete { id: "id0".into() },
                },
            ])
            .unwrap();
            t.sync().unwrap();
        }
        // Tear the last record.
        let p = d.path().join("translog-1.tlog");
        let len = fs::metadata(&p).unwrap().len();
        OpenOptions::new()
            .write(true)
            .open(&p)
            .unwrap()
            .set_len(len - 3)
            .unwrap();
        let (mut t, recs) = Translog::open(d.path()).unwrap();
        assert_eq!(recs, vec![rec(0), rec(1)]);
        t.append(&[rec(3)]).unwrap();
        t.sync().unwrap();
        drop(t);
        let (_, recs) = Translog::open(d.path()).unwrap();
        assert_eq!(recs.len(), 3);
        assert_eq!(recs[2], rec(3));
    }

    #[test]
    fn an_append_larger_than_one_write_replays_whole() {
        let d = tempfile::tempdir().unwrap();
        // Records that straddle the write pieces' boundaries.
        let records: Vec<Record> = (0..7)
            .map(|seq| Record {
                seq_no: seq,
                primary_term: 1,
                version: 1,
                op: Operation::Index {
                    id: format!("id{seq}"),
                    routing: None,
                    source: Arc::new(vec![b'x'; WRITE_PIECE / 3 + seq as usize]),
                },
            })
            .collect();
        {
            let (mut t, _) = Translog::open(d.path()).unwrap();
            let written = t.append(&records).unwrap();
            assert!(written > 2 * WRITE_PIECE as u64);
            t.sync().unwrap();
        }
        let (_, replayed) = Translog::open(d.path()).unwrap();
        assert_eq!(replayed, records);
    }

    #[test]
    fn corrupt_byte_stops_replay() {
        let d = tempfile::tempdir().unwrap();
        {
            let (mut t, _) = Translog::open(d.path()).unwrap();
            t.append(&[rec(0), rec(1)]).unwrap();
            t.sync().unwrap();
        }
        let p = d.path().join("translog-1.tlog");
        let mut bytes = fs::read(&p).unwrap();
        let n = bytes.len();
        bytes[n - 2] ^= 0xff;
        fs::write(&p, bytes).unwrap();
        let (_, recs) = Translog::open(d.path()).unwrap();
        assert_eq!(recs, vec![rec(0)]);
    }

    #[test]
    fn roll_trims_old_generations() {
        let d = tempfile::tempdir().unwrap();
        let (mut t, _) = Translog::open(d.path()).unwrap();
        t.append(&[rec(0)]).unwrap();
        t.roll_and_trim().unwrap();
        t.append(&[rec(1)]).unwrap();
        t.sync().unwrap();
        drop(t);
        let (_, recs) = Translog::open(d.path()).unwrap();
        assert_eq!(recs, vec![rec(1)]);
    }
}
