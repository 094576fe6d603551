//! The engine's one error table: every failure carries an OpenSearch exception type and an HTTP
//! status, so the HTTP layer renders it without knowing where it came from.

use serde_json::{Map, Value};
use std::fmt;

/// OpenSearch exception kinds the engine can raise. The table in [`ErrorKind::type_and_status`]
/// is the only place that maps them to wire names and statuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    IllegalArgument,
    IllegalState,
    IndexNotFound,
    ResourceAlreadyExists,
    ResourceNotFound,
    InvalidIndexName,
    InvalidAliasName,
    InvalidTypeName,
    MapperParsing,
    StrictDynamicMapping,
    VersionConflict,
    DocumentMissing,
    Parse,
    /// Lucene's `ParseException` (query_string syntax): the same name, but a Java exception.
    LuceneParse,
    /// Lucene's query parser lexer (`TokenMgrError`): an unterminated quote, regexp or escape.
    TokenMgr,
    XContentParse,
    Parsing,
    NamedObjectNotFound,
    SearchPhaseExecution,
    /// A shard's query phase stopped (`Time exceeded` when partial results are refused).
    QueryPhaseExecution,
    /// `search_exception` (a shard-level search refusal, 500).
    Search,
    SearchContextMissing,
    QueryShard,
    JsonParse,
    JsonEof,
    /// Jackson's `InputCoercionException`: a number past the range the parser asked for.
    InputCoercion,
    /// Jackson's `StreamConstraintsException`: a body nested deeper than the parsers allow.
    StreamConstraints,
    RoutingMissing,
    NotXContent,
    ActionRequestValidation,
    AggregationInitialization,
    /// Raised while a shard builds its aggregators (a `global` below a bucket).
    AggregationExecution,
    Settings,
    IndexClosed,
    /// `invalid_index_template_exception`: a template refused on a put.
    InvalidIndexTemplate,
    /// `index_template_missing_exception`: deleting a template that is not there.
    IndexTemplateMissing,
    AliasesNotFound,
    /// An index block refused the operation (`index.blocks.*`).
    ClusterBlock,
    NumberFormat,
    DateTimeParse,
    /// `java.time.DateTimeException` (a bad time zone offset), only ever a cause.
    DateTime,
    /// `java.time.zone.ZoneRulesException` (an unknown time zone), only ever a cause.
    ZoneRules,
    Timeout,
    UnsupportedOperation,
    /// A plain `OpenSearchException` (type `exception`), e.g. a function failing while scoring.
    OpenSearch,
    /// Java's `ClassCastException`, which OpenSearch lets surface from some field-data casts.
    ClassCast,
    /// Lucene's `IndexSearcher.TooManyClauses`: a rewrite past the clause limit.
    TooManyClauses,
    /// OpenSearch's `TaskCancelledException`: a request cancelled through the tasks API.
    TaskCancelled,
    /// `script_exception`: a template that does not compile (400, as `ScriptException`).
    Script,
    /// mustache.java's `MustacheException`, only ever a script's cause.
    Mustache,
    /// mustache.java's `MustacheNotFoundException` (a partial), only ever a script's cause.
    MustacheNotFound,
    Internal,
}

impl ErrorKind {
    pub fn type_and_status(self) -> (&'static str, u16) {
        use ErrorKind::*;
        match self {
            IllegalArgument => ("illegal_argument_exception", 400),
            IllegalState => ("illegal_state_exception", 500),
            IndexNotFound => ("index_not_found_exception", 404),
            ResourceAlreadyExists => ("resource_already_exists_exception", 400),
            ResourceNotFound => ("resource_not_found_exception", 404),
            InvalidIndexName => ("invalid_index_name_exception", 400),
            InvalidAliasName => ("invalid_alias_name_exception", 400),
            InvalidTypeName => ("invalid_type_name_exception", 400),
            MapperParsing => ("mapper_parsing_exception", 400),
            StrictDynamicMapping => ("strict_dynamic_mapping_exception", 400),
            VersionConflict => ("version_conflict_engine_exception", 409),
            DocumentMissing => ("document_missing_exception", 404),
            Parse | LuceneParse => ("parse_exception", 400),
            TokenMgr => ("token_mgr_error", 400),
            XContentParse => ("x_content_parse_exception", 400),
            Parsing => ("parsing_exception", 400),
            NamedObjectNotFound => ("named_object_not_found_exception", 400),
            SearchPhaseExecution => ("search_phase_execution_exception", 400),
            QueryPhaseExecution => ("query_phase_execution_exception", 500),
            Search => ("search_exception", 500),
            SearchContextMissing => ("search_context_missing_exception", 404),
            QueryShard => ("query_shard_exception", 400),
            JsonParse => ("json_parse_exception", 400),
            JsonEof => ("json_e_o_f_exception", 400),
            InputCoercion => ("input_coercion_exception", 500),
            // OpenSearch would answer 500 (an unmapped Jackson exception), but it never gets
            // here: its parsers overflow the stack first. The body is at fault: 400.
            StreamConstraints => ("stream_constraints_exception", 400),
            RoutingMissing => ("routing_missing_exception", 400),
            NotXContent => ("not_x_content_exception", 400),
            ActionRequestValidation => ("action_request_validation_exception", 400),
            AggregationInitialization => ("aggregation_initialization_exception", 500),
            AggregationExecution => ("aggregation_execution_exception", 500),
            Settings => ("settings_exception", 400),
            IndexClosed => ("index_closed_exception", 400),
            InvalidIndexTemplate => ("invalid_index_template_exception", 400),
            IndexTemplateMissing => ("index_template_missing_exception", 404),
            AliasesNotFound => ("aliases_not_found_exception", 404),
            ClusterBlock => ("cluster_block_exception", 403),
            NumberFormat => ("number_format_exception", 400),
            DateTimeParse => ("date_time_parse_exception", 400),
            DateTime => ("date_time_exception", 400),
            ZoneRules => ("zone_rules_exception", 400),
            Timeout => ("timeout_exception", 504),
            UnsupportedOperation => ("unsupported_operation_exception", 500),
            OpenSearch => ("exception", 500),
            ClassCast => ("class_cast_exception", 500),
            TooManyClauses => ("too_many_clauses", 500),
            TaskCancelled => ("task_cancelled_exception", 500),
            Script => ("script_exception", 400),
            Mustache => ("mustache_exception", 500),
            MustacheNotFound => ("mustache_not_found_exception", 500),
            Internal => ("exception", 500),
        }
    }
}

impl ErrorKind {
    /// The Java class OpenSearch throws for the kind, for the places that print exceptions the
    /// way Java does (`_validate/query?explain`).
    pub fn java_class(self) -> &'static str {
        use ErrorKind::*;
        match self {
            IllegalArgument => "java.lang.IllegalArgumentException",
            IllegalState => "java.lang.IllegalStateException",
            IndexNotFound => "org.opensearch.index.IndexNotFoundException",
            ResourceAlreadyExists => "org.opensearch.ResourceAlreadyExistsException",
            ResourceNotFound => "org.opensearch.ResourceNotFoundException",
            InvalidIndexName => "org.opensearch.indices.InvalidIndexNameException",
            InvalidAliasName => "org.opensearch.indices.InvalidAliasNameException",
            InvalidTypeName => "org.opensearch.indices.InvalidTypeNameException",
            MapperParsing => "org.opensearch.index.mapper.MapperParsingException",
            StrictDynamicMapping => "org.opensearch.index.mapper.StrictDynamicMappingException",
            VersionConflict => "org.opensearch.index.engine.VersionConflictEngineException",
            DocumentMissing => "org.opensearch.index.engine.DocumentMissingException",
            Parse => "org.opensearch.OpenSearchParseException",
            LuceneParse => "org.apache.lucene.queryparser.classic.ParseException",
            TokenMgr => "org.apache.lucene.queryparser.classic.TokenMgrError",
            XContentParse => "org.opensearch.core.xcontent.XContentParseException",
            Parsing => "org.opensearch.core.common.ParsingException",
            NamedObjectNotFound => "org.opensearch.core.xcontent.NamedObjectNotFoundException",
            SearchPhaseExecution => "org.opensearch.action.search.SearchPhaseExecutionException",
            QueryPhaseExecution => "org.opensearch.search.query.QueryPhaseExecutionException",
            Search => "org.opensearch.search.SearchException",
            SearchContextMissing => "org.opensearch.search.SearchContextMissingException",
            QueryShard => "org.opensearch.index.query.QueryShardException",
            JsonParse => "com.fasterxml.jackson.core.JsonParseException",
            JsonEof => "com.fasterxml.jackson.core.io.JsonEOFException",
            InputCoercion => "com.fasterxml.jackson.core.exc.InputCoercionException",
            StreamConstraints => "com.fasterxml.jackson.core.exc.StreamConstraintsException",
            RoutingMissing => "org.opensearch.action.RoutingMissingException",
            NotXContent => "org.opensearch.core.compress.NotXContentException",
            ActionRequestValidation => "org.opensearch.action.ActionRequestValidationException",
            AggregationInitialization => {
                "org.opensearch.search.aggregations.AggregationInitializationException"
            }
            AggregationExecution => {
                "org.opensearch.search.aggregations.AggregationExecutionException"
            }
            Settings => "org.opensearch.common.settings.SettingsException",
            IndexClosed => "org.opensearch.indices.IndexClosedException",
            InvalidIndexTemplate => "org.opensearch.indices.InvalidIndexTemplateException",
            IndexTemplateMissing => "org.opensearch.indices.IndexTemplateMissingException",
            AliasesNotFound => "org.opensearch.rest.action.admin.indices.AliasesNotFoundException",
            ClusterBlock => "org.opensearch.cluster.block.ClusterBlockException",
            NumberFormat => "java.lang.NumberFormatException",
            DateTimeParse => "java.time.format.DateTimeParseException",
            DateTime => "java.time.DateTimeException",
            ZoneRules => "java.time.zone.ZoneRulesException",
            Timeout => "java.util.concurrent.TimeoutException",
            UnsupportedOperation => "java.lang.UnsupportedOperationException",
            ClassCast => "java.lang.ClassCastException",
            TooManyClauses => "org.apache.lucene.search.IndexSearcher$TooManyClauses",
            TaskCancelled => "org.opensearch.core.tasks.TaskCancelledException",
            Script => "org.opensearch.script.ScriptException",
            Mustache => "com.github.mustachejava.MustacheException",
            MustacheNotFound => "com.github.mustachejava.MustacheNotFoundException",
            OpenSearch | Internal => "org.opensearch.OpenSearchException",
        }
    }
}

/// An engine error: kind, OpenSearch's reason text, the extra fields OpenSearch prints beside it
/// (`index`, `index_uuid`, `shard`, `resource.type`, …) in its order, and an optional cause.
#[derive(Debug, Clone)]
pub struct Error {
    pub kind: ErrorKind,
    pub reason: String,
    pub metadata: Vec<(String, Value)>,
    pub caused_by: Option<Box<Error>>,
    /// Overrides the table's status where OpenSearch answers differently for the same type.
    pub status_override: Option<u16>,
    /// Where the body's parser stood when it failed (line, column), for an error that does not
    /// print it but whose wrappers quote it; never rendered.
    pub at: Option<(usize, usize)>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorKind, reason: impl Into<String>) -> Self {
        Error {
            kind,
            reason: reason.into(),
            metadata: Vec::new(),
            caused_by: None,
            status_override: None,
            at: None,
        }
    }

    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.metadata.push((key.to_string(), value.into()));
        self
    }

    pub fn caused_by(mut self, cause: Error) -> Self {
        self.caused_by = Some(Box::new(cause));
        self
    }

    pub fn with_status(mut self, status: u16) -> Self {
        self.status_override = Some(status);
        self
    }

    pub fn status(&self) -> u16 {
        self.status_override
            .unwrap_or_else(|| self.kind.type_and_status().1)
    }

    pub fn type_name(&self) -> &'static str {
        self.kind.type_and_status().0
    }

    pub fn illegal_argument(reason: impl Into<String>) -> Self {
        Error::new(ErrorKind::IllegalArgument, reason)
    }

    /// A text field asked for per-document values (sorting, scripts, `docvalue_fields`).
    pub fn text_fielddata(field: &str) -> Self {
        Error::illegal_argument(format!(
            "Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [{field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory."
        ))
    }

    pub fn internal(reason: impl Into<String>) -> Self {
        Error::new(ErrorKind::Internal, reason)
    }

    pub fn index_not_found(index: &str) -> Self {
        Error::new(ErrorKind::IndexNotFound, format!("no such index [{index}]"))
            .with("index", index)
            .with("resource.id", index)
            .with("resource.type", "index_or_alias")
            .with("index_uuid", "_na_")
    }

    /// The missing-index error of single-document APIs, which name the expression.
    pub fn index_expression_not_found(index: &str) -> Self {
        Error::new(ErrorKind::IndexNotFound, format!("no such index [{index}]"))
            .with("index", index)
            .with("resource.id", index)
            .with("resource.type", "index_expression")
            .with("index_uuid", "_na_")
    }

    /// Attaches the shard-level fields OpenSearch prints on document errors.
    pub fn on_shard(self, index: &str, uuid: &str, shard: u32) -> Self {
        self.with("index", index)
            .with("shard", shard.to_string())
            .with("index_uuid", uuid)
    }

    /// The error as OpenSearch renders one cause: type, reason, extra fields, then caused_by.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), Value::from(self.type_name()));
        m.insert("reason".into(), Value::from(self.reason.clone()));
        for (k, v) in &self.metadata {
            m.insert(k.clone(), v.clone());
        }
        if let Some(c) = &self.caused_by {
            m.insert("caused_by".into(), c.to_json());
        }
        Value::Object(m)
    }

    /// Plain Java exceptions, which OpenSearch never reports as a root cause when an OpenSearch
    /// exception wraps them (the HTTP layer's renderer applies the same rule).
    pub fn is_java_exception(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::IllegalArgument
                | ErrorKind::LuceneParse
                | ErrorKind::TokenMgr
                | ErrorKind::IllegalState
                | ErrorKind::NumberFormat
                | ErrorKind::JsonParse
                | ErrorKind::JsonEof
                | ErrorKind::InputCoercion
                | ErrorKind::StreamConstraints
                | ErrorKind::DateTimeParse
                | ErrorKind::DateTime
                | ErrorKind::ZoneRules
                | ErrorKind::NotXContent
                | ErrorKind::NamedObjectNotFound
                | ErrorKind::ClassCast
                | ErrorKind::Mustache
                | ErrorKind::MustacheNotFound
                | ErrorKind::Internal
        )
    }

    /// The error as OpenSearch's detailed message prints a Java exception chain:
    /// `[index/uuid] Name[reason]; nested: Cause[reason];; fully.qualified.Cause: reason`.
    pub fn detailed_message(&self) -> String {
        let mut chain = vec![self];
        while let Some(c) = chain.last().and_then(|e| e.caused_by.as_deref()) {
            chain.push(c);
        }
        let one = |e: &Error| {
            let class = e.kind.java_class();
            let simple = class.rsplit('.').next().unwrap_or(class);
            let meta = |k: &str| e.metadata.iter().find(|(m, _)| m == k).map(|(_, v)| v);
            let prefix = match (meta("index").and_then(Value::as_str), meta("index_uuid")) {
                (Some(index), Some(Value::String(uuid))) => format!("[{index}/{uuid}] "),
                _ => String::new(),
            };
            format!("{prefix}{simple}[{}]", e.reason)
        };
        let mut out = chain
            .iter()
            .map(|&e| one(e))
            .collect::<Vec<_>>()
            .join("; nested: ");
        // `getDetailedMessage` descends through OpenSearch exceptions and ends with the first
        // plain Java cause's `toString`.
        if let [_, rest @ ..] = chain.as_slice() {
            let java = |e: &&&Error| e.is_java_exception() || e.kind == ErrorKind::XContentParse;
            if let Some(tail) = rest.iter().find(java).or(rest.last()) {
                out.push_str(&format!(";; {}: {}", tail.kind.java_class(), tail.reason));
            }
        }
        out
    }

    /// OpenSearch's `guessRootCauses`: an OpenSearch exception hands down to an OpenSearch
    /// cause, an `x_content_parse_exception` to an x_content or OpenSearch cause; a plain Java
    /// exception ends the descent (it is the root only at the top).
    pub fn root_cause(&self) -> &Error {
        let opensearch = |e: &Error| !e.is_java_exception() && e.kind != ErrorKind::XContentParse;
        let mut root = self;
        while let Some(c) = root.caused_by.as_deref() {
            let descends = match root.kind {
                ErrorKind::XContentParse => c.kind == ErrorKind::XContentParse || opensearch(c),
                _ => opensearch(root) && opensearch(c),
            };
            if !descends {
                break;
            }
            root = c;
        }
        root
    }

    /// `root_cause` as the envelope prints it: the root cause without its own causes.
    fn root_causes_json(&self) -> Value {
        let mut root = self.root_cause().to_json();
        if let Value::Object(m) = &mut root {
            m.remove("caused_by");
        }
        Value::Array(vec![root])
    }

    /// The `error` object of OpenSearch's envelope, for errors embedded in a response (`_mget`
    /// items): `root_cause`, then the cause itself.
    pub fn to_envelope(&self) -> Value {
        let mut m = Map::new();
        m.insert("root_cause".into(), self.root_causes_json());
        if let Value::Object(own) = self.to_json() {
            m.extend(own);
        }
        Value::Object(m)
    }

    /// The wire form handed to the HTTP layer: the cause object plus its status, and its root
    /// cause (by kind: a type name such as `parse_exception` is both OpenSearch's and Lucene's,
    /// which the HTTP layer could not tell apart) unless the error names its own.
    pub fn to_wire(&self) -> Value {
        let mut v = self.to_json();
        if let Value::Object(m) = &mut v {
            if !m.contains_key("root_cause") {
                m.insert("root_cause".into(), self.root_causes_json());
            }
            m.insert("status".into(), Value::from(self.status()));
        }
        v
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.type_name(), self.reason)
    }
}

impl std::error::Error for Error {}

impl From<tantivy::TantivyError> for Error {
    fn from(e: tantivy::TantivyError) -> Self {
        Error::internal(format!("engine failure: {e}"))
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::internal(format!("i/o failure: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_not_found_renders_opensearch_fields() {
        let e = Error::index_not_found("logs");
        let v = e.to_wire();
        assert_eq!(v["type"], "index_not_found_exception");
        assert_eq!(v["reason"], "no such index [logs]");
        assert_eq!(v["index_uuid"], "_na_");
        assert_eq!(v["status"], 404);
    }

    #[test]
    fn caused_by_nests() {
        let e = Error::new(ErrorKind::MapperParsing, "failed to parse")
            .caused_by(Error::illegal_argument("bad"));
        assert_eq!(
            e.to_json()["caused_by"]["type"],
            "illegal_argument_exception"
        );
    }
}
