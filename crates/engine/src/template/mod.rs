//! Search templates: Mustache sources filled from a request's `params` into a search body, as
//! OpenSearch's `lang-mustache` module renders them. `value` is the parameters as OpenSearch's
//! parser holds them, `mustache` the template language, `request` the template request body.

pub mod mustache;
pub mod request;
pub mod value;

pub use mustache::{Encoder, Template};
pub use request::{ScriptRef, TemplateRequest};
pub use value::Value;

use crate::error::{Error, ErrorKind, Result};
use mustache::MustacheError;

/// The only script language Quarry runs.
pub const LANG: &str = "mustache";

/// Compiles a template's source; a refusal is OpenSearch's `script_exception` quoting it.
pub fn compile(source: &str, encoder: Encoder) -> Result<Template> {
    Template::compile(source, encoder).map_err(|e| script_error(source, e))
}

fn script_error(source: &str, e: MustacheError) -> Error {
    let kind = if e.not_found {
        ErrorKind::MustacheNotFound
    } else {
        ErrorKind::Mustache
    };
    Error::new(ErrorKind::Script, e.message.clone())
        .with("script_stack", serde_json::Value::Array(Vec::new()))
        .with("script", source)
        .with("lang", LANG)
        .caused_by(Error::new(kind, e.message))
}

/// The encoder a script's `content_type` option names (JSON when it names none).
pub fn encoder_for(content_type: Option<&str>) -> Result<Encoder> {
    match content_type {
        None => Ok(Encoder::Json),
        Some(mime) => Encoder::for_content_type(mime).ok_or_else(|| {
            Error::illegal_argument(format!("No encoder found for MIME type [{mime}]"))
        }),
    }
}
