//! Mappings: OpenSearch's field types and parameters, parsed and validated, merged on update
//! (new fields only; type changes refused as OpenSearch refuses them), and rendered back.

use crate::error::{Error, ErrorKind, Result};
use crate::index::date_format::{DateFormat, DEFAULT_FORMAT};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    Text,
    Keyword,
    Long,
    Integer,
    Short,
    Byte,
    UnsignedLong,
    Double,
    Float,
    HalfFloat,
    ScaledFloat,
    Boolean,
    Date,
    Ip,
}

impl FieldType {
    pub fn name(self) -> &'static str {
        use FieldType::*;
        match self {
            Text => "text",
            Keyword => "keyword",
            Long => "long",
            Integer => "integer",
            Short => "short",
            Byte => "byte",
            UnsignedLong => "unsigned_long",
            Double => "double",
            Float => "float",
            HalfFloat => "half_float",
            ScaledFloat => "scaled_float",
            Boolean => "boolean",
            Date => "date",
            Ip => "ip",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<FieldType> {
        use FieldType::*;
        Some(match name {
            "text" => Text,
            "keyword" => Keyword,
            "long" => Long,
            "integer" => Integer,
            "short" => Short,
            "byte" => Byte,
            "unsigned_long" => UnsignedLong,
            "double" => Double,
            "float" => Float,
            "half_float" => HalfFloat,
            "scaled_float" => ScaledFloat,
            "boolean" => Boolean,
            "date" => Date,
            "ip" => Ip,
            _ => return None,
        })
    }

    /// Parameters each type accepts, as OpenSearch's mappers declare them.
    fn accepts(self, param: &str) -> bool {
        use FieldType::*;
        const COMMON: &[&str] = &["store", "meta", "boost", "copy_to", "fields"];
        if COMMON.contains(&param) {
            return true;
        }
        let specific: &[&str] = match self {
            Text => &[
                "analyzer",
                "search_analyzer",
                "search_quote_analyzer",
                "index",
                "index_options",
                "norms",
                "position_increment_gap",
                "similarity",
                "term_vector",
                "fielddata",
                "index_prefixes",
                "index_phrases",
                "eager_global_ordinals",
            ],
            Keyword => &[
                "ignore_above",
                "normalizer",
                "index",
                "doc_values",
                "null_value",
                "index_options",
                "norms",
                "similarity",
                "eager_global_ordinals",
                "split_queries_on_whitespace",
            ],
            Long | Integer | Short | Byte | UnsignedLong | Double | Float | HalfFloat => &[
                "index",
                "doc_values",
                "null_value",
                "coerce",
                "ignore_malformed",
            ],
            ScaledFloat => &[
                "index",
                "doc_values",
                "null_value",
                "coerce",
                "ignore_malformed",
                "scaling_factor",
            ],
            Boolean => &["index", "doc_values", "null_value"],
            Date => &[
                "index",
                "doc_values",
                "null_value",
                "format",
                "locale",
                "ignore_malformed",
                "print_format",
            ],
            Ip => &["index", "doc_values", "null_value", "ignore_malformed"],
        };
        specific.contains(&param)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dynamic {
    True,
    False,
    Strict,
}

impl Dynamic {
    fn parse(v: &Value) -> Result<Dynamic> {
        match v {
            Value::Bool(true) => Ok(Dynamic::True),
            Value::Bool(false) => Ok(Dynamic::False),
            Value::String(s) if s == "true" => Ok(Dynamic::True),
            Value::String(s) if s == "false" => Ok(Dynamic::False),
            Value::String(s) if s == "strict" => Ok(Dynamic::Strict),
            other => Err(
                Error::illegal_argument("Could not convert [dynamic.dynamic] to boolean")
                    .caused_by(Error::illegal_argument(format!(
                        "Failed to parse value [{}] as only [true] or [false] are allowed.",
                        display(other)
                    ))),
            ),
        }
    }
    fn render(self) -> Value {
        match self {
            Dynamic::True => Value::from("true"),
            Dynamic::False => Value::from("false"),
            Dynamic::Strict => Value::from("strict"),
        }
    }
}

fn display(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A leaf field: its type, the parameters as given (for rendering), and what they mean.
#[derive(Debug, Clone)]
pub struct FieldMapping {
    pub ty: FieldType,
    pub params: Map<String, Value>,
    pub fields: BTreeMap<String, FieldMapping>,
    pub index: bool,
    pub doc_values: bool,
    pub store: bool,
    pub norms: bool,
    pub ignore_above: Option<usize>,
    pub null_value: Option<Value>,
    pub copy_to: Vec<String>,
    pub analyzer: String,
    pub search_analyzer: String,
    /// The analyzer of quoted (phrase) queries: `search_quote_analyzer`, else the search analyzer.
    pub search_quote_analyzer: String,
    /// `position_increment_gap` as given (`None`: the analyzer's, 100 unless a custom analyzer
    /// sets its own).
    pub position_increment_gap: Option<u32>,
    /// A keyword field's `normalizer`.
    pub normalizer: Option<String>,
    pub scaling_factor: f64,
    pub coerce: bool,
    pub ignore_malformed: bool,
    pub date_format: Option<DateFormat>,
}

#[derive(Debug, Clone)]
pub struct ObjectMapping {
    pub dynamic: Option<Dynamic>,
    pub enabled: bool,
    pub properties: BTreeMap<String, Property>,
}

#[derive(Debug, Clone)]
pub enum Property {
    Object(ObjectMapping),
    Field(Box<FieldMapping>),
}

/// The mapping of one index.
#[derive(Debug, Clone)]
pub struct Mapping {
    pub root: ObjectMapping,
    /// Root-level keys kept as given: `_meta`, `_source`, `_routing`, `date_detection`, …
    pub root_params: Map<String, Value>,
}

const ROOT_PARAMS: &[&str] = &[
    "_meta",
    "_source",
    "_routing",
    "date_detection",
    "numeric_detection",
    "dynamic_date_formats",
    "dynamic_templates",
    "_field_names",
];

fn mapper_err(reason: impl Into<String>) -> Error {
    Error::new(ErrorKind::MapperParsing, reason)
}

fn bool_param(name: &str, field: &str, v: &Value) -> Result<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" => Ok(true),
        Value::String(s) if s == "false" => Ok(false),
        other => Err(mapper_err(format!(
            "Failed to parse value [{}] as only [true] or [false] are allowed.",
            display(other)
        ))
        .with("field", field)
        .with("param", name)),
    }
}

impl FieldMapping {
    pub fn parse(name: &str, ty: FieldType, def: &Map<String, Value>) -> Result<FieldMapping> {
        let mut fm = FieldMapping {
            ty,
            params: Map::new(),
            fields: BTreeMap::new(),
            index: true,
            doc_values: ty != FieldType::Text,
            store: false,
            norms: ty == FieldType::Text,
            ignore_above: None,
            null_value: None,
            copy_to: Vec::new(),
            analyzer: "default".into(),
            search_analyzer: "default".into(),
            search_quote_analyzer: "default".into(),
            position_increment_gap: None,
            normalizer: None,
            scaling_factor: 0.0,
            coerce: true,
            ignore_malformed: false,
            date_format: if ty == FieldType::Date {
                Some(DateFormat::default_format())
            } else {
                None
            },
        };
        for (k, v) in def {
            if k == "type" {
                continue;
            }
            if !ty.accepts(k) {
                return Err(mapper_err(format!(
                    "unknown parameter [{k}] on mapper [{name}] of type [{}]",
                    ty.name()
                )));
            }
            match k.as_str() {
                "index" => fm.index = bool_param(k, name, v)?,
                "doc_values" => fm.doc_values = bool_param(k, name, v)?,
                "store" => fm.store = bool_param(k, name, v)?,
                "norms" => fm.norms = bool_param(k, name, v)?,
                "coerce" => fm.coerce = bool_param(k, name, v)?,
                "ignore_malformed" => fm.ignore_malformed = bool_param(k, name, v)?,
                "ignore_above" => {
                    let n = v
                        .as_i64()
                        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                        .ok_or_else(|| {
                            mapper_err(format!("failed to parse [ignore_above] on mapper [{name}]"))
                        })?;
                    // OpenSearch accepts a negative limit, which then ignores nothing.
                    fm.ignore_above = usize::try_from(n).ok();
                }
                "null_value" => fm.null_value = if v.is_null() { None } else { Some(v.clone()) },
                "copy_to" => {
                    fm.copy_to = match v {
                        Value::String(s) => vec![s.clone()],
                        Value::Array(a) => a
                            .iter()
                            .filter_map(|x| x.as_str().map(String::from))
                            .collect(),
                        _ => {
                            return Err(mapper_err(format!(
                                "Cannot parse [copy_to] on mapper [{name}]"
                            )))
                        }
                    };
                    fm.params.insert(k.clone(), Value::from(fm.copy_to.clone()));
                    continue;
                }
                "analyzer" | "search_analyzer" | "search_quote_analyzer" => {
                    let s = v.as_str().ok_or_else(|| {
                        mapper_err(format!("[{k}] on mapper [{name}] must be a string"))
                    })?;
                    // Whether the analyzer exists depends on the index's analysis settings:
                    // checked by `Mapping::check_analyzers` where those are known.
                    if k == "analyzer" {
                        fm.analyzer = s.to_string();
                        if !def.contains_key("search_analyzer") {
                            fm.search_analyzer = s.to_string();
                        }
                    } else if k == "search_analyzer" {
                        fm.search_analyzer = s.to_string();
                    } else {
                        fm.search_quote_analyzer = s.to_string();
                    }
                }
                "normalizer" if !v.is_null() => {
                    let s = v.as_str().ok_or_else(|| {
                        mapper_err(format!("[{k}] on mapper [{name}] must be a string"))
                    })?;
                    fm.normalizer = Some(s.to_string());
                }
                "position_increment_gap" => {
                    let n = v
                        .as_i64()
                        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                        .ok_or_else(|| {
                            mapper_err(format!(
                                "failed to parse [position_increment_gap] on mapper [{name}]"
                            ))
                        })?;
                    if n < 0 {
                        return Err(mapper_err(
                            "[positions_increment_gap] must be positive, got [".to_string()
                                + &n.to_string()
                                + "]",
                        ));
                    }
                    fm.position_increment_gap = Some(n.min(u32::MAX as i64) as u32);
                }
                "scaling_factor" => {
                    fm.scaling_factor = v
                        .as_f64()
                        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                        .ok_or_else(|| {
                            mapper_err(format!(
                                "failed to parse [scaling_factor] on mapper [{name}]"
                            ))
                        })?;
                }
                "format" => {
                    let s = v
                        .as_str()
                        .ok_or_else(|| mapper_err("[format] must be a string"))?;
                    fm.date_format = Some(DateFormat::parse_format(s).map_err(|e| {
                        mapper_err(format!(
                            "Error parsing [format] on field [{name}]: {}",
                            e.reason
                        ))
                    })?);
                }
                "fields" => {
                    let Value::Object(subs) = v else {
                        return Err(mapper_err(format!(
                            "Expected map for property [fields] on field [{name}]"
                        )));
                    };
                    for (sub, sdef) in subs {
                        let Value::Object(sdef) = sdef else {
                            return Err(mapper_err(format!(
                                "Expected map for property [fields] on field [{sub}]"
                            )));
                        };
                        let sty = sdef.get("type").and_then(Value::as_str).unwrap_or("object");
                        let st = field_type(sub, sty)?.ok_or_else(|| {
                            mapper_err(format!("Type [{sty}] cannot be used in multi field"))
                        })?;
                        let path = format!("{name}.{sub}");
                        let mut parsed = FieldMapping::parse(&path, st, sdef)?;
                        if !parsed.fields.is_empty() {
                            parsed.fields.clear();
                        }
                        fm.fields.insert(sub.clone(), parsed);
                    }
                    continue;
                }
                _ => {}
            }
            fm.params.insert(k.clone(), v.clone());
        }
        if !def.contains_key("search_quote_analyzer") {
            fm.search_quote_analyzer = fm.search_analyzer.clone();
        }
        if ty == FieldType::ScaledFloat && !def.contains_key("scaling_factor") {
            return Err(Error::illegal_argument(
                "Field [scaling_factor] is required",
            ));
        }
        Ok(fm)
    }

    pub fn render(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), Value::from(self.ty.name()));
        for (k, v) in &self.params {
            m.insert(k.clone(), v.clone());
        }
        if !self.fields.is_empty() {
            let subs: Map<String, Value> = self
                .fields
                .iter()
                .map(|(k, f)| (k.clone(), f.render()))
                .collect();
            m.insert("fields".into(), Value::Object(subs));
        }
        Value::Object(m)
    }
}

/// `Ok(None)` for `object`; a clear 400 for types Quarry does not have yet.
fn field_type(name: &str, ty: &str) -> Result<Option<FieldType>> {
    if ty == "object" {
        return Ok(None);
    }
    if let Some(t) = FieldType::from_name(ty) {
        return Ok(Some(t));
    }
    const LATER: &[&str] = &[
        "nested",
        "geo_point",
        "geo_shape",
        "flat_object",
        "join",
        "percolator",
        "knn_vector",
    ];
    if LATER.contains(&ty) {
        return Err(mapper_err(format!(
            "field type [{ty}] on field [{name}] is not supported by Quarry yet"
        )));
    }
    Err(mapper_err(format!(
        "No handler for type [{ty}] declared on field [{name}]"
    )))
}

impl ObjectMapping {
    fn empty() -> Self {
        ObjectMapping {
            dynamic: None,
            enabled: true,
            properties: BTreeMap::new(),
        }
    }

    fn parse_properties(prefix: &str, props: &Value) -> Result<BTreeMap<String, Property>> {
        let Value::Object(props) = props else {
            return Err(mapper_err("Expected map for property [properties]"));
        };
        let mut out = BTreeMap::new();
        for (name, def) in props {
            let Value::Object(def) = def else {
                return Err(mapper_err(format!("Expected map for property [fields] on field [{name}] but got a class java.lang.String")));
            };
            if name.is_empty() {
                return Err(mapper_err("field name cannot be an empty string"));
            }
            let path = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}.{name}")
            };
            // A dotted name is shorthand for nested objects.
            if let Some((head, rest)) = name.split_once('.') {
                let mut inner = Map::new();
                inner.insert(rest.to_string(), Value::Object(def.clone()));
                let mut obj = Map::new();
                obj.insert("properties".into(), Value::Object(inner));
                let parsed = Property::parse(
                    &if prefix.is_empty() {
                        head.to_string()
                    } else {
                        format!("{prefix}.{head}")
                    },
                    &obj,
                )?;
                merge_property(&mut out, head, parsed, true)?;
                continue;
            }
            out.insert(name.clone(), Property::parse(&path, def)?);
        }
        Ok(out)
    }

    fn parse(path: &str, def: &Map<String, Value>) -> Result<ObjectMapping> {
        let mut o = ObjectMapping::empty();
        for (k, v) in def {
            match k.as_str() {
                "type" => {}
                "dynamic" => o.dynamic = Some(Dynamic::parse(v)?),
                "enabled" => o.enabled = bool_param(k, path, v)?,
                "properties" => o.properties = ObjectMapping::parse_properties(path, v)?,
                _ => {
                    return Err(mapper_err(format!(
                        "Mapping definition for [{}] has unsupported parameters:  [{k} : {}]",
                        path.rsplit('.').next().unwrap_or(path),
                        display(v)
                    )))
                }
            }
        }
        Ok(o)
    }

    fn render(&self, with_type: bool) -> Map<String, Value> {
        let mut m = Map::new();
        if with_type && self.properties.is_empty() && self.dynamic.is_none() && self.enabled {
            m.insert("type".into(), Value::from("object"));
        }
        if let Some(d) = self.dynamic {
            m.insert("dynamic".into(), d.render());
        }
        if !self.enabled {
            m.insert("type".into(), Value::from("object"));
            m.insert("enabled".into(), Value::Bool(false));
        }
        if !self.properties.is_empty() {
            let props: Map<String, Value> = self
                .properties
                .iter()
                .map(|(k, p)| {
                    let v = match p {
                        Property::Field(f) => f.render(),
                        Property::Object(o) => Value::Object(o.render(true)),
                    };
                    (k.clone(), v)
                })
                .collect();
            m.insert("properties".into(), Value::Object(props));
        }
        m
    }
}

impl Property {
    fn parse(path: &str, def: &Map<String, Value>) -> Result<Property> {
        let ty = match def.get("type") {
            None => None,
            Some(Value::String(s)) => Some(s.as_str()),
            Some(other) => {
                return Err(mapper_err(format!(
                    "No handler for type [{}] declared on field [{path}]",
                    display(other)
                )))
            }
        };
        let is_object = ty.is_none() || ty == Some("object");
        if is_object {
            return Ok(Property::Object(ObjectMapping::parse(path, def)?));
        }
        let ty = ty.unwrap_or("object");
        match field_type(path, ty)? {
            Some(t) => Ok(Property::Field(Box::new(FieldMapping::parse(
                path, t, def,
            )?))),
            None => Ok(Property::Object(ObjectMapping::parse(path, def)?)),
        }
    }
}

fn merge_property(
    into: &mut BTreeMap<String, Property>,
    name: &str,
    incoming: Property,
    path_prefix_ok: bool,
) -> Result<()> {
    let _ = path_prefix_ok;
    match (into.get_mut(name), incoming) {
        (None, p) => {
            into.insert(name.to_string(), p);
            Ok(())
        }
        (Some(Property::Object(existing)), Property::Object(new)) => existing.merge(new),
        (Some(Property::Field(existing)), Property::Field(new)) => existing.merge(name, *new),
        (Some(Property::Object(_)), Property::Field(_)) => Err(Error::illegal_argument(format!(
            "can't merge a non object mapping [{name}] with an object mapping"
        ))),
        (Some(Property::Field(_)), Property::Object(_)) => Err(Error::illegal_argument(format!(
            "can't merge a non object mapping [{name}] with an object mapping"
        ))),
    }
}

impl ObjectMapping {
    fn merge(&mut self, other: ObjectMapping) -> Result<()> {
        if other.dynamic.is_some() {
            self.dynamic = other.dynamic;
        }
        for (name, p) in other.properties {
            merge_property(&mut self.properties, &name, p, false)?;
        }
        Ok(())
    }
}

impl FieldMapping {
    fn merge(&mut self, name: &str, other: FieldMapping) -> Result<()> {
        if self.ty != other.ty {
            return Err(Error::illegal_argument(format!(
                "mapper [{name}] cannot be changed from type [{}] to [{}]",
                self.ty.name(),
                other.ty.name()
            )));
        }
        // Updatable in place: ignore_above; new multi-fields. Anything else must stay equal.
        let mut conflicts = Vec::new();
        for key in [
            "analyzer",
            "search_analyzer",
            "index",
            "doc_values",
            "store",
            "norms",
            "format",
            "scaling_factor",
            "null_value",
        ] {
            let a = self.params.get(key);
            let b = other.params.get(key);
            if key == "search_analyzer" && b.is_none() {
                continue;
            }
            if a != b {
                let show =
                    |v: Option<&Value>| v.map(display).unwrap_or_else(|| default_of(key, self.ty));
                conflicts.push(format!(
                    "Cannot update parameter [{key}] from [{}] to [{}]",
                    show(a),
                    show(b)
                ));
            }
        }
        if !conflicts.is_empty() {
            return Err(Error::illegal_argument(format!(
                "Mapper for [{name}] conflicts with existing mapper:\n\t{}",
                conflicts.join("\n\t")
            )));
        }
        if let Some(v) = other.params.get("ignore_above") {
            self.params.insert("ignore_above".into(), v.clone());
            self.ignore_above = other.ignore_above;
        }
        for (sub, f) in other.fields {
            match self.fields.get_mut(&sub) {
                Some(existing) => existing.merge(&format!("{name}.{sub}"), f)?,
                None => {
                    self.fields.insert(sub, f);
                }
            }
        }
        Ok(())
    }
}

fn default_of(key: &str, ty: FieldType) -> String {
    match key {
        "analyzer" | "search_analyzer" => "default".into(),
        "index" => "true".into(),
        "doc_values" => (ty != FieldType::Text).to_string(),
        "store" => "false".into(),
        "norms" => (ty == FieldType::Text).to_string(),
        "format" => DEFAULT_FORMAT.into(),
        _ => "null".into(),
    }
}

/// One indexable leaf, flattened: full dotted path and its mapping.
pub struct Leaf<'a> {
    pub path: String,
    pub field: &'a FieldMapping,
}

/// OpenSearch 2.x refuses mappings nested under a type name (`{"_doc": {"properties": …}}`).
pub fn reject_type_wrapper(map: &Map<String, Value>) -> Result<()> {
    if map.len() == 1 {
        if let Some((k, Value::Object(inner))) = map.iter().next() {
            let is_root_key = ROOT_PARAMS.contains(&k.as_str())
                || k == "properties"
                || k == "dynamic"
                || k == "enabled";
            if !is_root_key && inner.contains_key("properties") {
                return Err(Error::illegal_argument(
                    "The mapping definition cannot be nested under a type",
                ));
            }
        }
    }
    Ok(())
}

impl Mapping {
    pub fn empty() -> Mapping {
        Mapping {
            root: ObjectMapping::empty(),
            root_params: Map::new(),
        }
    }

    /// Parses a `mappings` body. A type wrapper (`{"_doc": {...}}`) is refused, as OpenSearch 2.x refuses it.
    pub fn parse(body: &Value) -> Result<Mapping> {
        let Value::Object(map) = body else {
            return Err(mapper_err(
                "Failed to parse mapping: mapping must be an object",
            ));
        };
        reject_type_wrapper(map)?;
        let mut m = Mapping::empty();
        for (k, v) in map {
            match k.as_str() {
                "dynamic" => m.root.dynamic = Some(Dynamic::parse(v)?),
                "enabled" => m.root.enabled = bool_param(k, "_doc", v)?,
                "properties" => m.root.properties = ObjectMapping::parse_properties("", v)?,
                other if ROOT_PARAMS.contains(&other) => {
                    m.root_params.insert(k.clone(), v.clone());
                }
                other => {
                    return Err(mapper_err(format!(
                        "Root mapping definition has unsupported parameters:  [{other} : {}]",
                        display(v)
                    )))
                }
            }
        }
        Ok(m)
    }

    /// Merges an update; the result is a new mapping, so a failed merge changes nothing.
    pub fn merged(&self, update: &Mapping) -> Result<Mapping> {
        let mut out = self.clone();
        out.root.merge(update.root.clone())?;
        for (k, v) in &update.root_params {
            out.root_params.insert(k.clone(), v.clone());
        }
        Ok(out)
    }

    pub fn render(&self) -> Value {
        let mut m = Map::new();
        if let Some(d) = self.root.dynamic {
            m.insert("dynamic".into(), d.render());
        }
        for (k, v) in &self.root_params {
            m.insert(k.clone(), v.clone());
        }
        let inner = self.root.render(false);
        if let Some(p) = inner.get("properties") {
            m.insert("properties".into(), p.clone());
        }
        Value::Object(m)
    }

    /// Refuses a field whose `analyzer`/`search_analyzer`/`search_quote_analyzer` the index
    /// cannot resolve (`known` answers for built-in and the index's own analyzers).
    /// A keyword field's `normalizer` is looked up as `known(analysis::normalizer_key(name))`.
    pub fn check_analyzers(&self, known: &dyn Fn(&str) -> bool) -> Result<()> {
        for leaf in self.leaves() {
            if let Some(n) = &leaf.field.normalizer {
                if !known(&crate::analysis::normalizer_key(n)) {
                    return Err(mapper_err(format!(
                        "normalizer [{n}] not found for field [{}]",
                        leaf.path
                    )));
                }
            }
            for key in ["analyzer", "search_analyzer", "search_quote_analyzer"] {
                if let Some(name) = leaf.field.params.get(key).and_then(Value::as_str) {
                    if !known(name) {
                        return Err(Error::illegal_argument(format!(
                            "analyzer [{name}] has not been configured in mappings"
                        )));
                    }
                }
            }
        }
        Ok(())
    }

    /// Every leaf field (multi-fields included), in a stable order.
    pub fn leaves(&self) -> Vec<Leaf<'_>> {
        let mut out = Vec::new();
        collect_leaves("", &self.root.properties, &mut out);
        out
    }

    pub fn date_detection(&self) -> bool {
        self.root_params
            .get("date_detection")
            .and_then(Value::as_bool)
            .unwrap_or(true)
    }

    pub fn numeric_detection(&self) -> bool {
        self.root_params
            .get("numeric_detection")
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    /// The mapping of one leaf by full path.
    pub fn field(&self, path: &str) -> Option<&FieldMapping> {
        let mut props = &self.root.properties;
        let parts: Vec<&str> = path.split('.').collect();
        for (i, part) in parts.iter().enumerate() {
            match props.get(*part)? {
                Property::Object(o) => props = &o.properties,
                Property::Field(f) => {
                    let mut f: &FieldMapping = f;
                    for sub in &parts[i + 1..] {
                        f = f.fields.get(*sub)?;
                    }
                    return Some(f);
                }
            }
        }
        None
    }
}

fn collect_leaves<'a>(
    prefix: &str,
    props: &'a BTreeMap<String, Property>,
    out: &mut Vec<Leaf<'a>>,
) {
    for (name, p) in props {
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        match p {
            Property::Object(o) => collect_leaves(&path, &o.properties, out),
            Property::Field(f) => {
                for (sub, sf) in &f.fields {
                    out.push(Leaf {
                        path: format!("{path}.{sub}"),
                        field: sf,
                    });
                }
                out.push(Leaf { path, field: f });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_and_renders() {
        let body = json!({"properties": {
            "title": {"type": "text", "fields": {"raw": {"type": "keyword", "ignore_above": 10}}},
            "user": {"properties": {"name": {"type": "keyword"}}},
            "n": {"type": "long"},
            "a.b": {"type": "integer"}
        }});
        let m = Mapping::parse(&body).unwrap();
        let r = m.render();
        assert_eq!(
            r["properties"]["title"]["fields"]["raw"]["ignore_above"],
            10
        );
        assert_eq!(r["properties"]["a"]["properties"]["b"]["type"], "integer");
        let paths: Vec<String> = m.leaves().into_iter().map(|l| l.path).collect();
        assert!(paths.contains(&"title.raw".to_string()));
        assert!(paths.contains(&"user.name".to_string()));
        assert_eq!(m.field("title.raw").unwrap().ty, FieldType::Keyword);
    }

    #[test]
    fn errors() {
        let e = Mapping::parse(&json!({"properties": {"x": {"type": "foo"}}})).unwrap_err();
        assert_eq!(e.reason, "No handler for type [foo] declared on field [x]");
        let e = Mapping::parse(&json!({"properties": {"x": {"type": "text", "bogus": 1}}}))
            .unwrap_err();
        assert_eq!(
            e.reason,
            "unknown parameter [bogus] on mapper [x] of type [text]"
        );
        let e = Mapping::parse(&json!({"properties": {"x": {"type": "nested"}}})).unwrap_err();
        assert!(e.reason.contains("not supported by Quarry yet"));
    }

    #[test]
    fn merge_rules() {
        let a = Mapping::parse(&json!({"properties": {"x": {"type": "text"}}})).unwrap();
        let b = Mapping::parse(
            &json!({"properties": {"x": {"type": "keyword"}, "y": {"type": "long"}}}),
        )
        .unwrap();
        let e = a.merged(&b).unwrap_err();
        assert_eq!(
            e.reason,
            "mapper [x] cannot be changed from type [text] to [keyword]"
        );
        let c = Mapping::parse(&json!({"properties": {"y": {"type": "long"}}})).unwrap();
        let m = a.merged(&c).unwrap();
        assert!(m.field("y").is_some());
    }
}
