// The URL parameters OpenSearch's REST handlers read only when a `q` is given (the options of
// the query string it builds: RestActions.urlParamsToQueryBuilder and its kin).
export const QUERY_STRING_PARAMS = { q: ['analyzer', 'analyze_wildcard', 'default_operator', 'df', 'lenient'] } as const;
