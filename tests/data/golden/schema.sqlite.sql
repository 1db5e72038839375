CREATE TABLE record (
	id VARCHAR NOT NULL,
	kind VARCHAR NOT NULL,
	path VARCHAR NOT NULL,
	PRIMARY KEY (id)
);

CREATE TABLE unit (
	token VARCHAR NOT NULL,
	dimension VARCHAR NOT NULL,
	symbol VARCHAR NOT NULL,
	scale VARCHAR,
	scale_float DOUBLE,
	record_id VARCHAR,
	PRIMARY KEY (token)
);

CREATE TABLE source (
	id VARCHAR NOT NULL,
	title VARCHAR NOT NULL,
	year BIGINT NOT NULL,
	venue VARCHAR NOT NULL,
	role VARCHAR NOT NULL,
	host VARCHAR NOT NULL,
	heading VARCHAR NOT NULL,
	page_count BIGINT NOT NULL,
	pdf_creation_date DATE NOT NULL,
	retrieval_url VARCHAR,
	doi VARCHAR,
	arxiv VARCHAR,
	openreview VARCHAR,
	sha256 VARCHAR NOT NULL,
	hash_scope VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE family (
	id VARCHAR NOT NULL,
	name VARCHAR NOT NULL,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE config (
	id VARCHAR NOT NULL,
	name VARCHAR NOT NULL,
	description VARCHAR,
	profile VARCHAR,
	reported_name VARCHAR NOT NULL,
	model_family VARCHAR NOT NULL,
	source VARCHAR NOT NULL,
	source_locator_section VARCHAR,
	source_locator_table VARCHAR,
	source_locator_figure VARCHAR,
	source_locator_row VARCHAR,
	source_locator_column VARCHAR,
	source_locator_subtable VARCHAR,
	source_locator_uncertainty_column VARCHAR,
	source_locator_caption BOOLEAN,
	source_locator_footnote VARCHAR,
	source_locator_page BIGINT,
	source_locator_quote VARCHAR,
	source_locator_note VARCHAR,
	provenance_note VARCHAR,
	checkpoint VARCHAR,
	version VARCHAR,
	fine_tuning_description VARCHAR,
	training_setting VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(model_family) REFERENCES family (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(source) REFERENCES source (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE protocol (
	id VARCHAR NOT NULL,
	name VARCHAR NOT NULL,
	source VARCHAR NOT NULL,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(source) REFERENCES source (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE dataset (
	id VARCHAR NOT NULL,
	name VARCHAR NOT NULL,
	source VARCHAR NOT NULL,
	seed BIGINT,
	version VARCHAR,
	folds BIGINT,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(source) REFERENCES source (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE evaluation (
	id VARCHAR NOT NULL,
	name VARCHAR NOT NULL,
	configuration VARCHAR NOT NULL,
	protocol VARCHAR NOT NULL,
	dataset VARCHAR NOT NULL,
	independence VARCHAR NOT NULL,
	aggregation VARCHAR,
	aggregated_over_kind VARCHAR,
	aggregated_over_count BIGINT,
	coverage_scored BIGINT,
	coverage_eligible BIGINT,
	split VARCHAR,
	adaptation VARCHAR,
	update_mode VARCHAR,
	scoring_implementation VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(configuration) REFERENCES config (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(protocol) REFERENCES protocol (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(dataset) REFERENCES dataset (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE result (
	id VARCHAR NOT NULL,
	evaluation VARCHAR NOT NULL,
	metric VARCHAR NOT NULL,
	metric_direction VARCHAR,
	metric_qualifier VARCHAR NOT NULL,
	unit VARCHAR NOT NULL,
	unit_detail VARCHAR,
	unit_printed VARCHAR,
	printed_value VARCHAR NOT NULL,
	numeric_value VARCHAR NOT NULL,
	numeric_value_float DOUBLE NOT NULL,
	bound VARCHAR,
	range_upper_printed_value VARCHAR,
	range_upper_numeric_value VARCHAR,
	range_upper_numeric_value_float DOUBLE,
	uncertainty_kind VARCHAR,
	uncertainty_printed VARCHAR,
	uncertainty_half_width VARCHAR,
	uncertainty_half_width_float DOUBLE,
	uncertainty_lower VARCHAR,
	uncertainty_lower_float DOUBLE,
	uncertainty_upper VARCHAR,
	uncertainty_upper_float DOUBLE,
	uncertainty_level VARCHAR,
	uncertainty_level_float DOUBLE,
	uncertainty_over_kind VARCHAR,
	uncertainty_over_count BIGINT,
	uncertainty_note VARCHAR,
	uncertainty_stated_at_page BIGINT,
	uncertainty_stated_at_quote VARCHAR,
	scope_note VARCHAR,
	derived_operation VARCHAR,
	derived_value VARCHAR,
	derived_baseline VARCHAR,
	derived_note VARCHAR,
	source VARCHAR NOT NULL,
	source_locator_section VARCHAR,
	source_locator_table VARCHAR,
	source_locator_figure VARCHAR,
	source_locator_row VARCHAR,
	source_locator_column VARCHAR,
	source_locator_subtable VARCHAR,
	source_locator_uncertainty_column VARCHAR,
	source_locator_caption BOOLEAN NOT NULL,
	source_locator_footnote VARCHAR,
	source_locator_page BIGINT,
	source_locator_quote VARCHAR,
	source_locator_note VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(evaluation) REFERENCES evaluation (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(derived_value) REFERENCES result (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(derived_baseline) REFERENCES result (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(source) REFERENCES source (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE review (
	id VARCHAR NOT NULL,
	source VARCHAR NOT NULL,
	status VARCHAR NOT NULL,
	reviewer VARCHAR,
	reviewer_note VARCHAR,
	reviewed_at DATETIME,
	artifact_sha256 VARCHAR,
	extraction_sha256 VARCHAR,
	second_extraction_sha256 VARCHAR,
	retrieval_url VARCHAR,
	method_note VARCHAR,
	note VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(source) REFERENCES source (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE evidence (
	id VARCHAR NOT NULL,
	subject VARCHAR NOT NULL,
	property VARCHAR NOT NULL,
	statement VARCHAR NOT NULL,
	claim_scope VARCHAR NOT NULL,
	source VARCHAR NOT NULL,
	source_locator_section VARCHAR,
	source_locator_table VARCHAR,
	source_locator_figure VARCHAR,
	source_locator_row VARCHAR,
	source_locator_column VARCHAR,
	source_locator_subtable VARCHAR,
	source_locator_uncertainty_column VARCHAR,
	source_locator_caption BOOLEAN NOT NULL,
	source_locator_footnote VARCHAR,
	source_locator_page BIGINT,
	source_locator_quote VARCHAR,
	source_locator_note VARCHAR,
	source_independence VARCHAR NOT NULL,
	review VARCHAR NOT NULL,
	field VARCHAR,
	source_artifact_sha256 VARCHAR,
	hash_scope VARCHAR,
	extraction_artifact_sha256 VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(subject) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(source) REFERENCES source (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(review) REFERENCES review (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE release (
	id VARCHAR NOT NULL,
	name VARCHAR NOT NULL,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE recipe (
	id VARCHAR NOT NULL,
	result VARCHAR NOT NULL,
	experiment VARCHAR NOT NULL,
	dataset VARCHAR,
	fixed_model VARCHAR NOT NULL,
	fixed_stage VARCHAR NOT NULL,
	fixed_sequence_length BIGINT NOT NULL,
	fixed_batch_size BIGINT NOT NULL,
	fixed_data_seed BIGINT NOT NULL,
	fixed_metric VARCHAR NOT NULL,
	verified BOOLEAN NOT NULL,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(result) REFERENCES result (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(dataset) REFERENCES dataset (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE reproduction (
	id VARCHAR NOT NULL,
	result VARCHAR NOT NULL,
	recipe VARCHAR NOT NULL,
	method VARCHAR NOT NULL,
	model VARCHAR NOT NULL,
	outcome VARCHAR NOT NULL,
	error VARCHAR,
	value_bytes BIGINT,
	value VARCHAR,
	value_float DOUBLE,
	value_gib VARCHAR,
	value_gib_float DOUBLE,
	reserved_bytes BIGINT,
	warmup_peak_bytes BIGINT,
	comparison_transcribed VARCHAR,
	comparison_transcribed_float DOUBLE,
	comparison_reproduced VARCHAR,
	comparison_reproduced_float DOUBLE,
	comparison_difference VARCHAR,
	comparison_difference_float DOUBLE,
	comparison_ratio VARCHAR,
	comparison_ratio_float DOUBLE,
	attention_impl VARCHAR,
	tokens_per_sequence BIGINT,
	parameters BIGINT,
	trainable_parameters BIGINT,
	steps BIGINT,
	warmup_steps BIGINT,
	method_note VARCHAR,
	hardware_kind VARCHAR NOT NULL,
	hardware_name VARCHAR NOT NULL,
	hardware_memory_bytes BIGINT,
	hardware_count BIGINT NOT NULL,
	git_commit VARCHAR,
	command VARCHAR NOT NULL,
	started_at DATETIME NOT NULL,
	duration_s DOUBLE NOT NULL,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(result) REFERENCES result (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(recipe) REFERENCES recipe (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE correction (
	id VARCHAR NOT NULL,
	supersedes VARCHAR NOT NULL,
	replacement VARCHAR NOT NULL,
	reason VARCHAR NOT NULL,
	corrected_by VARCHAR NOT NULL,
	corrected_at DATETIME NOT NULL,
	note VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(supersedes) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(replacement) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE retraction (
	id VARCHAR NOT NULL,
	retracts VARCHAR NOT NULL,
	reason VARCHAR NOT NULL,
	retracted_by VARCHAR NOT NULL,
	retracted_at DATETIME NOT NULL,
	note VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(retracts) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE unit_record (
	id VARCHAR NOT NULL,
	token VARCHAR NOT NULL,
	name VARCHAR NOT NULL,
	symbol VARCHAR NOT NULL,
	dimension VARCHAR NOT NULL,
	factor VARCHAR,
	factor_float DOUBLE,
	note VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE missing_metadata (
	record_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	field VARCHAR NOT NULL,
	reason VARCHAR NOT NULL,
	note VARCHAR,
	PRIMARY KEY (record_id, position),
	FOREIGN KEY(record_id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE source_author (
	source_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	author VARCHAR NOT NULL,
	PRIMARY KEY (source_id, position),
	FOREIGN KEY(source_id) REFERENCES source (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE source_source_file (
	source_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	path VARCHAR NOT NULL,
	format VARCHAR NOT NULL,
	sha256 VARCHAR NOT NULL,
	retrieval_url VARCHAR,
	retrieval_note VARCHAR,
	PRIMARY KEY (source_id, position),
	FOREIGN KEY(source_id) REFERENCES source (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE config_area (
	config_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	area VARCHAR NOT NULL,
	PRIMARY KEY (config_id, position),
	FOREIGN KEY(config_id) REFERENCES config (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE config_context (
	config_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	context VARCHAR NOT NULL,
	PRIMARY KEY (config_id, position),
	FOREIGN KEY(config_id) REFERENCES config (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE config_method_type (
	config_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	method_type VARCHAR NOT NULL,
	PRIMARY KEY (config_id, position),
	FOREIGN KEY(config_id) REFERENCES config (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE config_hardware (
	config_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	accelerator VARCHAR NOT NULL,
	count BIGINT,
	memory_value VARCHAR,
	memory_value_float DOUBLE,
	memory_unit VARCHAR,
	stated VARCHAR NOT NULL,
	verbatim BOOLEAN NOT NULL,
	location VARCHAR,
	PRIMARY KEY (config_id, position),
	FOREIGN KEY(config_id) REFERENCES config (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE dataset_split (
	dataset_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	name VARCHAR NOT NULL,
	size BIGINT,
	items VARCHAR,
	note VARCHAR,
	PRIMARY KEY (dataset_id, position),
	FOREIGN KEY(dataset_id) REFERENCES dataset (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE result_hardware (
	result_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	accelerator VARCHAR NOT NULL,
	count BIGINT,
	memory_value VARCHAR,
	memory_value_float DOUBLE,
	memory_unit VARCHAR,
	stated VARCHAR NOT NULL,
	verbatim BOOLEAN NOT NULL,
	location VARCHAR,
	PRIMARY KEY (result_id, position),
	FOREIGN KEY(result_id) REFERENCES result (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE result_derived_input (
	result_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	input VARCHAR NOT NULL,
	PRIMARY KEY (result_id, position),
	FOREIGN KEY(result_id) REFERENCES result (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(input) REFERENCES result (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE result_source_check (
	result_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	claim VARCHAR NOT NULL,
	text VARCHAR NOT NULL,
	page BIGINT,
	PRIMARY KEY (result_id, position),
	FOREIGN KEY(result_id) REFERENCES result (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE review_subject (
	review_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	subject VARCHAR NOT NULL,
	PRIMARY KEY (review_id, position),
	FOREIGN KEY(review_id) REFERENCES review (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(subject) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE review_method (
	review_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	method VARCHAR NOT NULL,
	PRIMARY KEY (review_id, position),
	FOREIGN KEY(review_id) REFERENCES review (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE release_member (
	release_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	member VARCHAR NOT NULL,
	PRIMARY KEY (release_id, position),
	FOREIGN KEY(release_id) REFERENCES release (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(member) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE recipe_knob (
	recipe_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	name VARCHAR NOT NULL,
	note VARCHAR,
	PRIMARY KEY (recipe_id, position),
	FOREIGN KEY(recipe_id) REFERENCES recipe (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE recipe_knob_candidate (
	recipe_id VARCHAR NOT NULL,
	knob_position BIGINT NOT NULL,
	position BIGINT NOT NULL,
	value VARCHAR NOT NULL,
	value_type VARCHAR NOT NULL,
	PRIMARY KEY (recipe_id, knob_position, position),
	FOREIGN KEY(recipe_id, knob_position) REFERENCES recipe_knob (recipe_id, position) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE reproduction_setting (
	reproduction_id VARCHAR NOT NULL,
	knob VARCHAR NOT NULL,
	value VARCHAR NOT NULL,
	value_type VARCHAR NOT NULL,
	PRIMARY KEY (reproduction_id, knob),
	FOREIGN KEY(reproduction_id) REFERENCES reproduction (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE reproduction_breakdown (
	reproduction_id VARCHAR NOT NULL,
	category VARCHAR NOT NULL,
	bytes BIGINT NOT NULL,
	PRIMARY KEY (reproduction_id, category),
	FOREIGN KEY(reproduction_id) REFERENCES reproduction (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE reproduction_software (
	reproduction_id VARCHAR NOT NULL,
	name VARCHAR NOT NULL,
	version VARCHAR,
	PRIMARY KEY (reproduction_id, name),
	FOREIGN KEY(reproduction_id) REFERENCES reproduction (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE unit_record_printed_form (
	unit_record_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	printed_form VARCHAR NOT NULL,
	PRIMARY KEY (unit_record_id, position),
	FOREIGN KEY(unit_record_id) REFERENCES unit_record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE unit_record_word (
	unit_record_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	word VARCHAR NOT NULL,
	PRIMARY KEY (unit_record_id, position),
	FOREIGN KEY(unit_record_id) REFERENCES unit_record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE registry_meta (
	"key" VARCHAR NOT NULL,
	value VARCHAR NOT NULL,
	PRIMARY KEY ("key")
);

CREATE INDEX ix_record_kind ON record (kind);

CREATE INDEX ix_unit_dimension ON unit (dimension);

CREATE INDEX ix_config_model_family ON config (model_family);

CREATE INDEX ix_config_source ON config (source);

CREATE INDEX ix_protocol_source ON protocol (source);

CREATE INDEX ix_dataset_source ON dataset (source);

CREATE INDEX ix_evaluation_configuration ON evaluation (configuration);

CREATE INDEX ix_evaluation_dataset ON evaluation (dataset);

CREATE INDEX ix_evaluation_protocol ON evaluation (protocol);

CREATE INDEX ix_result_derived_baseline ON result (derived_baseline);

CREATE INDEX ix_result_derived_value ON result (derived_value);

CREATE INDEX ix_result_evaluation ON result (evaluation);

CREATE INDEX ix_result_metric ON result (metric);

CREATE INDEX ix_result_source ON result (source);

CREATE INDEX ix_review_source ON review (source);

CREATE INDEX ix_evidence_review ON evidence (review);

CREATE INDEX ix_evidence_source ON evidence (source);

CREATE INDEX ix_evidence_subject ON evidence (subject);

CREATE INDEX ix_recipe_dataset ON recipe (dataset);

CREATE INDEX ix_recipe_result ON recipe (result);

CREATE INDEX ix_reproduction_recipe ON reproduction (recipe);

CREATE INDEX ix_reproduction_result ON reproduction (result);

CREATE INDEX ix_correction_replacement ON correction (replacement);

CREATE INDEX ix_correction_supersedes ON correction (supersedes);

CREATE INDEX ix_retraction_retracts ON retraction (retracts);

CREATE INDEX ix_unit_record_token ON unit_record (token);

CREATE INDEX ix_missing_metadata_field ON missing_metadata (field);

CREATE INDEX ix_missing_metadata_reason ON missing_metadata (reason);

CREATE INDEX ix_config_area_area ON config_area (area);

CREATE INDEX ix_config_context_context ON config_context (context);

CREATE INDEX ix_config_method_type_method_type ON config_method_type (method_type);

CREATE INDEX ix_result_derived_input_input ON result_derived_input (input);

CREATE INDEX ix_review_subject_subject ON review_subject (subject);

CREATE INDEX ix_review_method_method ON review_method (method);

CREATE INDEX ix_release_member_member ON release_member (member);

CREATE VIEW record_review_status AS
SELECT q.record_id,
       q.kind,
       q.review_status,
       q.artifact_pinned,
       CASE
         WHEN q.review_status = 'source-checked' AND q.artifact_pinned = 0 THEN 'source checked (no artifact hash)'
         WHEN q.review_status = 'source-checked' THEN 'source checked'
         ELSE 'not reviewed' END AS review_label,
       q.review_count,
       q.record_page
FROM (SELECT rec.id AS record_id,
       rec.kind AS kind,
       CASE
         WHEN EXISTS (SELECT 1 FROM review_subject s JOIN review v ON v.id = s.review_id
                      WHERE s.subject = rec.id AND v.status = 'source-checked') OR EXISTS (SELECT 1 FROM evidence s JOIN review v ON v.id = s.review
                      WHERE s.id = rec.id AND v.status = 'source-checked') THEN 'source-checked'
         ELSE 'not-reviewed' END AS review_status,
       CASE WHEN EXISTS (SELECT 1 FROM review_subject s JOIN review v ON v.id = s.review_id
                      WHERE s.subject = rec.id AND v.status = 'source-checked' AND v.artifact_sha256 IS NOT NULL) OR EXISTS (SELECT 1 FROM evidence s JOIN review v ON v.id = s.review
                      WHERE s.id = rec.id AND v.status = 'source-checked' AND v.artifact_sha256 IS NOT NULL)
            THEN 1 ELSE 0 END AS artifact_pinned,
       (SELECT COUNT(DISTINCT s.review_id) FROM review_subject s WHERE s.subject = rec.id) + (SELECT COUNT(DISTINCT s.review) FROM evidence s WHERE s.id = rec.id AND NOT EXISTS (SELECT 1 FROM review_subject o WHERE o.subject = rec.id AND o.review_id = s.review)) AS review_count,
       (SELECT m.value FROM registry_meta m WHERE m.key = 'site_url') || rec.kind || '/' || rec.id || '.html' AS record_page
FROM record rec) q;

CREATE VIEW record_status AS
SELECT rec.id AS record_id,
       rec.kind AS kind,
       CASE WHEN EXISTS (SELECT 1 FROM retraction t WHERE t.retracts = rec.id) THEN 'retracted'
            WHEN EXISTS (SELECT 1 FROM correction c WHERE c.supersedes = rec.id) THEN 'superseded'
            ELSE 'current' END AS status,
       (SELECT MIN(c.replacement) FROM correction c WHERE c.supersedes = rec.id) AS superseded_by,
       (SELECT MIN(c.id) FROM correction c WHERE c.supersedes = rec.id) AS correction_id,
       (SELECT MIN(t.id) FROM retraction t WHERE t.retracts = rec.id) AS retraction_id,
       (SELECT m.value FROM registry_meta m WHERE m.key = 'site_url') || rec.kind || '/' || rec.id || '.html' AS record_page
FROM record rec;

CREATE VIEW results_flat AS
SELECT r.id AS result_id,
       r.printed_value,
       r.numeric_value,
       r.numeric_value_float,
       r.unit,
       r.unit_detail,
       r.metric,
       r.metric_direction,
       r.metric_qualifier,
       r.unit_printed,
       r.bound,
       r.range_upper_printed_value,
       r.range_upper_numeric_value,
       r.range_upper_numeric_value_float,
       r.uncertainty_kind,
       r.uncertainty_printed,
       r.uncertainty_half_width,
       r.uncertainty_half_width_float,
       r.uncertainty_lower,
       r.uncertainty_lower_float,
       r.uncertainty_upper,
       r.uncertainty_upper_float,
       r.uncertainty_level,
       r.uncertainty_level_float,
       r.uncertainty_over_kind,
       r.uncertainty_over_count,
       r.uncertainty_note,
       r.uncertainty_stated_at_page,
       r.uncertainty_stated_at_quote,
       r.scope_note,
       r.derived_operation,
       r.derived_value,
       r.derived_baseline,
       r.derived_note,
       r.source_locator_section,
       r.source_locator_table,
       r.source_locator_figure,
       r.source_locator_row,
       r.source_locator_column,
       r.source_locator_subtable,
       r.source_locator_uncertainty_column,
       r.source_locator_caption,
       r.source_locator_footnote,
       r.source_locator_page,
       r.source_locator_quote,
       r.source_locator_note,
       CASE WHEN r.derived_operation IN ('difference', 'percent-of', 'ratio', 'reduction', 'relative-change', 'relative-decrease', 'relative-increase', 'speed-up') THEN 'derived'
            WHEN EXISTS (SELECT 1 FROM result_derived_input di JOIN result m ON m.id = di.result_id
                         WHERE di.input = r.id AND m.derived_operation = 'mean')
                 THEN 'member'
            WHEN r.derived_operation = 'mean' THEN 'aggregate'
            ELSE 'headline' END AS value_role,
       u.dimension AS unit_dimension,
       u.symbol AS unit_symbol,
       (SELECT h.accelerator FROM result_hardware h WHERE h.result_id = r.id
        ORDER BY h.position LIMIT 1) AS hardware_accelerator,
       (SELECT COUNT(*) FROM result_hardware h WHERE h.result_id = r.id) AS hardware_entries,
       st.review_status,
       st.artifact_pinned AS review_artifact_pinned,
       st.review_label,
       (SELECT v.id FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id
        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1) AS latest_review_id,
       (SELECT v.reviewer FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id
        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1) AS latest_reviewer,
       (SELECT v.reviewed_at FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id
        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1) AS latest_reviewed_at,
       (SELECT COUNT(*) FROM missing_metadata m WHERE m.record_id = r.id) AS missing_metadata_count,
       (SELECT group_concat(t, '; ') FROM (SELECT m.field || ': ' || m.reason AS t FROM missing_metadata m WHERE m.record_id = r.id ORDER BY m.position)) AS missing_metadata,
       e.id AS evaluation_id,
       e.name AS evaluation_name,
       e.independence,
       e.split,
       e.adaptation,
       e.update_mode,
       e.aggregated_over_kind,
       e.aggregated_over_count,
       c.id AS configuration_id,
       c.name AS configuration_name,
       c.reported_name,
       c.checkpoint,
       f.id AS model_family_id,
       f.name AS model_family_name,
       p.id AS protocol_id,
       p.name AS protocol_name,
       d.id AS dataset_id,
       d.name AS dataset_name,
       d.version AS dataset_version,
       s.id AS source_id,
       s.title AS source_title,
       s.year AS source_year,
       s.venue AS source_venue,
       s.sha256 AS source_sha256,
       s.retrieval_url AS source_retrieval_url,
       s.doi AS source_doi,
       s.arxiv AS source_arxiv,
       s.openreview AS source_openreview,
       (SELECT m.value FROM registry_meta m WHERE m.key = 'site_url') || 'result' || '/' || r.id || '.html' AS result_page
FROM result r
JOIN evaluation e ON e.id = r.evaluation
JOIN config c ON c.id = e.configuration
JOIN family f ON f.id = c.model_family
JOIN protocol p ON p.id = e.protocol
JOIN dataset d ON d.id = e.dataset
JOIN source s ON s.id = r.source
JOIN record_review_status st ON st.record_id = r.id
JOIN record_status hs ON hs.record_id = r.id
LEFT JOIN unit u ON u.token = r.unit
WHERE hs.status = 'current';

CREATE VIEW results_all AS
SELECT r.id AS result_id,
       hs.status,
       hs.superseded_by,
       r.printed_value,
       r.numeric_value,
       r.numeric_value_float,
       r.unit,
       r.unit_detail,
       r.metric,
       r.metric_direction,
       r.metric_qualifier,
       r.unit_printed,
       r.bound,
       r.range_upper_printed_value,
       r.range_upper_numeric_value,
       r.range_upper_numeric_value_float,
       r.uncertainty_kind,
       r.uncertainty_printed,
       r.uncertainty_half_width,
       r.uncertainty_half_width_float,
       r.uncertainty_lower,
       r.uncertainty_lower_float,
       r.uncertainty_upper,
       r.uncertainty_upper_float,
       r.uncertainty_level,
       r.uncertainty_level_float,
       r.uncertainty_over_kind,
       r.uncertainty_over_count,
       r.uncertainty_note,
       r.uncertainty_stated_at_page,
       r.uncertainty_stated_at_quote,
       r.scope_note,
       r.derived_operation,
       r.derived_value,
       r.derived_baseline,
       r.derived_note,
       r.source_locator_section,
       r.source_locator_table,
       r.source_locator_figure,
       r.source_locator_row,
       r.source_locator_column,
       r.source_locator_subtable,
       r.source_locator_uncertainty_column,
       r.source_locator_caption,
       r.source_locator_footnote,
       r.source_locator_page,
       r.source_locator_quote,
       r.source_locator_note,
       CASE WHEN r.derived_operation IN ('difference', 'percent-of', 'ratio', 'reduction', 'relative-change', 'relative-decrease', 'relative-increase', 'speed-up') THEN 'derived'
            WHEN EXISTS (SELECT 1 FROM result_derived_input di JOIN result m ON m.id = di.result_id
                         WHERE di.input = r.id AND m.derived_operation = 'mean')
                 THEN 'member'
            WHEN r.derived_operation = 'mean' THEN 'aggregate'
            ELSE 'headline' END AS value_role,
       u.dimension AS unit_dimension,
       u.symbol AS unit_symbol,
       (SELECT h.accelerator FROM result_hardware h WHERE h.result_id = r.id
        ORDER BY h.position LIMIT 1) AS hardware_accelerator,
       (SELECT COUNT(*) FROM result_hardware h WHERE h.result_id = r.id) AS hardware_entries,
       st.review_status,
       st.artifact_pinned AS review_artifact_pinned,
       st.review_label,
       (SELECT v.id FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id
        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1) AS latest_review_id,
       (SELECT v.reviewer FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id
        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1) AS latest_reviewer,
       (SELECT v.reviewed_at FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id
        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1) AS latest_reviewed_at,
       (SELECT COUNT(*) FROM missing_metadata m WHERE m.record_id = r.id) AS missing_metadata_count,
       (SELECT group_concat(t, '; ') FROM (SELECT m.field || ': ' || m.reason AS t FROM missing_metadata m WHERE m.record_id = r.id ORDER BY m.position)) AS missing_metadata,
       e.id AS evaluation_id,
       e.name AS evaluation_name,
       e.independence,
       e.split,
       e.adaptation,
       e.update_mode,
       e.aggregated_over_kind,
       e.aggregated_over_count,
       c.id AS configuration_id,
       c.name AS configuration_name,
       c.reported_name,
       c.checkpoint,
       f.id AS model_family_id,
       f.name AS model_family_name,
       p.id AS protocol_id,
       p.name AS protocol_name,
       d.id AS dataset_id,
       d.name AS dataset_name,
       d.version AS dataset_version,
       s.id AS source_id,
       s.title AS source_title,
       s.year AS source_year,
       s.venue AS source_venue,
       s.sha256 AS source_sha256,
       s.retrieval_url AS source_retrieval_url,
       s.doi AS source_doi,
       s.arxiv AS source_arxiv,
       s.openreview AS source_openreview,
       (SELECT m.value FROM registry_meta m WHERE m.key = 'site_url') || 'result' || '/' || r.id || '.html' AS result_page
FROM result r
JOIN evaluation e ON e.id = r.evaluation
JOIN config c ON c.id = e.configuration
JOIN family f ON f.id = c.model_family
JOIN protocol p ON p.id = e.protocol
JOIN dataset d ON d.id = e.dataset
JOIN source s ON s.id = r.source
JOIN record_review_status st ON st.record_id = r.id
JOIN record_status hs ON hs.record_id = r.id
LEFT JOIN unit u ON u.token = r.unit;

CREATE VIEW missing_metadata_all AS
SELECT m.record_id,
       rec.kind,
       m.field,
       m.reason,
       m.note,
       rec.path,
       (SELECT m.value FROM registry_meta m WHERE m.key = 'site_url') || rec.kind || '/' || m.record_id || '.html' AS record_page
FROM missing_metadata m
JOIN record rec ON rec.id = m.record_id;

CREATE VIEW reproductions_side_by_side AS
SELECT rp.id AS reproduction_id,
       r.id AS result_id,
       rp.recipe AS recipe_id,
       rp.method,
       rp.outcome,
       rp.hardware_kind,
       rp.hardware_name,
       r.unit,
       r.printed_value AS transcribed_printed_value,
       r.numeric_value AS transcribed_value,
       rp.value AS our_value,
       rp.value_gib AS our_value_gib,
       rp.comparison_difference AS difference,
       rp.comparison_ratio AS ratio,
       rp.value_float AS our_value_float,
       rp.comparison_difference_float AS difference_float,
       rp.comparison_ratio_float AS ratio_float,
       rp.started_at,
       rp.git_commit,
       (SELECT m.value FROM registry_meta m WHERE m.key = 'site_url') || 'reproduction' || '/' || rp.id || '.html' AS reproduction_page,
       (SELECT m.value FROM registry_meta m WHERE m.key = 'site_url') || 'result' || '/' || r.id || '.html' AS result_page
FROM reproduction rp
JOIN result r ON r.id = rp.result;

CREATE VIRTUAL TABLE results_search USING fts5(result_id UNINDEXED, configuration_name, reported_name, model_family_name, dataset_name, protocol_name, evaluation_name, metric, metric_qualifier, source_locator_quote, uncertainty_printed, uncertainty_kind, uncertainty_note, scope_note, hardware_accelerator, source_title);

CREATE TABLE build_manifest (record_id VARCHAR NOT NULL PRIMARY KEY, digest BLOB NOT NULL);

CREATE TABLE build_state (key VARCHAR NOT NULL PRIMARY KEY, value VARCHAR NOT NULL);

CREATE TABLE build_files (folder VARCHAR NOT NULL PRIMARY KEY, names VARCHAR NOT NULL, digests BLOB NOT NULL);
