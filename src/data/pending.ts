// The query behind usePendingIds: ids of a table's rows with a write still in the upload queue (ps_crud).

/** ps_crud rows hold JSON like {"op":"PUT","type":"messages","id":"...","data":{...}}. */
export const PENDING_IDS_SQL =
  "select distinct json_extract(data, '$.id') as id from ps_crud where json_extract(data, '$.type') = ?";
