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
	scale NUMERIC,
	scale_float DOUBLE PRECISION,
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

CREATE TABLE benchmark (
	id VARCHAR NOT NULL,
	name VARCHAR NOT NULL,
	task VARCHAR,
	split VARCHAR,
	version VARCHAR,
	hf_dataset VARCHAR,
	paperswithcode VARCHAR,
	doi VARCHAR,
	url VARCHAR,
	note VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE dataset (
	id VARCHAR NOT NULL,
	name VARCHAR NOT NULL,
	source VARCHAR NOT NULL,
	seed BIGINT,
	version VARCHAR,
	folds BIGINT,
	benchmark VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(source) REFERENCES source (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(benchmark) REFERENCES benchmark (id) DEFERRABLE INITIALLY DEFERRED
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
	setting VARCHAR,
	shots BIGINT,
	input_length VARCHAR,
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
	numeric_value NUMERIC NOT NULL,
	numeric_value_float DOUBLE PRECISION NOT NULL,
	bound VARCHAR,
	range_upper_printed_value VARCHAR,
	range_upper_numeric_value NUMERIC,
	range_upper_numeric_value_float DOUBLE PRECISION,
	uncertainty_kind VARCHAR,
	uncertainty_printed VARCHAR,
	uncertainty_half_width NUMERIC,
	uncertainty_half_width_float DOUBLE PRECISION,
	uncertainty_lower NUMERIC,
	uncertainty_lower_float DOUBLE PRECISION,
	uncertainty_upper NUMERIC,
	uncertainty_upper_float DOUBLE PRECISION,
	uncertainty_level NUMERIC,
	uncertainty_level_float DOUBLE PRECISION,
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
	reviewed_at TIMESTAMP WITH TIME ZONE,
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
	value NUMERIC,
	value_float DOUBLE PRECISION,
	value_gib NUMERIC,
	value_gib_float DOUBLE PRECISION,
	reserved_bytes BIGINT,
	warmup_peak_bytes BIGINT,
	comparison_transcribed NUMERIC,
	comparison_transcribed_float DOUBLE PRECISION,
	comparison_reproduced NUMERIC,
	comparison_reproduced_float DOUBLE PRECISION,
	comparison_difference NUMERIC,
	comparison_difference_float DOUBLE PRECISION,
	comparison_ratio NUMERIC,
	comparison_ratio_float DOUBLE PRECISION,
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
	started_at TIMESTAMP WITH TIME ZONE NOT NULL,
	duration_s DOUBLE PRECISION NOT NULL,
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
	corrected_at TIMESTAMP WITH TIME ZONE NOT NULL,
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
	retracted_at TIMESTAMP WITH TIME ZONE NOT NULL,
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
	factor NUMERIC,
	factor_float DOUBLE PRECISION,
	note VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE attestation (
	id VARCHAR NOT NULL,
	subject VARCHAR NOT NULL,
	person VARCHAR NOT NULL,
	relation VARCHAR NOT NULL,
	stated_at TIMESTAMP WITH TIME ZONE NOT NULL,
	channel_kind VARCHAR NOT NULL,
	channel_reference VARCHAR NOT NULL,
	stance VARCHAR NOT NULL,
	meaning VARCHAR,
	believed_value VARCHAR,
	reason VARCHAR,
	erratum VARCHAR,
	correction VARCHAR,
	note VARCHAR,
	derivation VARCHAR,
	PRIMARY KEY (id),
	FOREIGN KEY(id) REFERENCES record (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(subject) REFERENCES result (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(correction) REFERENCES correction (id) DEFERRABLE INITIALLY DEFERRED
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
	memory_value NUMERIC,
	memory_value_float DOUBLE PRECISION,
	memory_unit VARCHAR,
	stated VARCHAR NOT NULL,
	verbatim BOOLEAN NOT NULL,
	location VARCHAR,
	PRIMARY KEY (config_id, position),
	FOREIGN KEY(config_id) REFERENCES config (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE benchmark_alias (
	benchmark_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	alias VARCHAR NOT NULL,
	PRIMARY KEY (benchmark_id, position),
	FOREIGN KEY(benchmark_id) REFERENCES benchmark (id) DEFERRABLE INITIALLY DEFERRED
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
	memory_value NUMERIC,
	memory_value_float DOUBLE PRECISION,
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

CREATE TABLE review_extractor (
	review_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	extractor VARCHAR NOT NULL,
	PRIMARY KEY (review_id, position),
	FOREIGN KEY(review_id) REFERENCES review (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE review_claim (
	review_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	claim VARCHAR NOT NULL,
	asserted VARCHAR NOT NULL,
	verdict VARCHAR NOT NULL,
	page BIGINT,
	printed VARCHAR,
	detail VARCHAR,
	PRIMARY KEY (review_id, position),
	FOREIGN KEY(review_id) REFERENCES review (id) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE review_claim_witness (
	review_id VARCHAR NOT NULL,
	claim_position BIGINT NOT NULL,
	position BIGINT NOT NULL,
	witness VARCHAR NOT NULL,
	kind VARCHAR NOT NULL,
	verdict VARCHAR,
	read VARCHAR,
	detail VARCHAR,
	PRIMARY KEY (review_id, claim_position, position),
	FOREIGN KEY(review_id, claim_position) REFERENCES review_claim (review_id, position) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE review_superseded (
	review_id VARCHAR NOT NULL,
	position BIGINT NOT NULL,
	superseded VARCHAR NOT NULL,
	PRIMARY KEY (review_id, position),
	FOREIGN KEY(review_id) REFERENCES review (id) DEFERRABLE INITIALLY DEFERRED,
	FOREIGN KEY(superseded) REFERENCES review (id) DEFERRABLE INITIALLY DEFERRED
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
	key VARCHAR NOT NULL,
	value VARCHAR NOT NULL,
	PRIMARY KEY (key)
);

CREATE INDEX ix_record_kind ON record (kind);

CREATE INDEX ix_unit_dimension ON unit (dimension);

CREATE INDEX ix_config_model_family ON config (model_family);

CREATE INDEX ix_config_source ON config (source);

CREATE INDEX ix_protocol_source ON protocol (source);

CREATE INDEX ix_dataset_benchmark ON dataset (benchmark);

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

CREATE INDEX ix_attestation_correction ON attestation (correction);

CREATE INDEX ix_attestation_subject ON attestation (subject);

CREATE INDEX ix_missing_metadata_field ON missing_metadata (field);

CREATE INDEX ix_missing_metadata_reason ON missing_metadata (reason);

CREATE INDEX ix_config_area_area ON config_area (area);

CREATE INDEX ix_config_context_context ON config_context (context);

CREATE INDEX ix_config_method_type_method_type ON config_method_type (method_type);

CREATE INDEX ix_result_derived_input_input ON result_derived_input (input);

CREATE INDEX ix_review_subject_subject ON review_subject (subject);

CREATE INDEX ix_review_method_method ON review_method (method);

CREATE INDEX ix_review_superseded_superseded ON review_superseded (superseded);

CREATE INDEX ix_release_member_member ON release_member (member);

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

CREATE VIEW record_review_status AS
SELECT q.record_id,
       q.kind,
       q.review_status,
       q.artifact_pinned,
       CASE
         WHEN q.review_status = 'source-checked' AND NOT (EXISTS (SELECT 1 FROM review_subject s JOIN review v ON v.id = s.review_id
                      WHERE s.subject = q.record_id AND v.status = 'source-checked' AND NOT EXISTS (SELECT 1 FROM review_claim c WHERE c.review_id = v.id AND NOT EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = c.position AND w.kind = 'pdf-text' AND w.verdict = 'pass') AND EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = c.position AND w.kind = 'source-document' AND w.verdict = 'pass')) AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = q.record_id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = q.record_id AND sc.review = ss.review_id)))) OR EXISTS (SELECT 1 FROM evidence s JOIN review v ON v.id = s.review
                      WHERE s.id = q.record_id AND v.status = 'source-checked' AND NOT EXISTS (SELECT 1 FROM review_claim c WHERE c.review_id = v.id AND NOT EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = c.position AND w.kind = 'pdf-text' AND w.verdict = 'pass') AND EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = c.position AND w.kind = 'source-document' AND w.verdict = 'pass')) AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = q.record_id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = q.record_id AND sc.review = ss.review_id))))) THEN 'checked against the source only'
         WHEN q.review_status = 'source-checked' AND q.artifact_pinned = 0 THEN 'source checked (no artifact hash)'
         WHEN q.review_status = 'review-failed' THEN 'review failed'
         WHEN q.review_status = 'could-not-be-checked' THEN 'could not be checked'
         WHEN q.review_status = 'source-checked' THEN 'source checked'
         ELSE 'not reviewed' END AS review_label,
       q.review_count,
       (SELECT string_agg(c.claim || ' ' || c.asserted || COALESCE(' on page ' || c.page, '') || ': ' || COALESCE(c.printed || '; ' || c.detail, c.printed, c.detail, '(nothing recorded)'), '; ' ORDER BY v.id, c.position) FROM review_subject s JOIN review v ON v.id = s.review_id JOIN review_claim c ON c.review_id = v.id WHERE s.subject = q.record_id AND v.status = q.review_status AND v.status IN ('review-failed', 'could-not-be-checked') AND c.verdict <> 'pass' AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = q.record_id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = q.record_id AND sc.review = ss.review_id)))) AS review_found,
       rtrim(CASE WHEN q.transcribed = 1 AND q.review_status = 'not-reviewed' THEN 'transcribed, ' ELSE '' END
       || CASE WHEN q.review_status = 'source-checked' AND NOT (q.review_status = 'source-checked' AND NOT (EXISTS (SELECT 1 FROM review_subject s JOIN review v ON v.id = s.review_id
                      WHERE s.subject = q.record_id AND v.status = 'source-checked' AND NOT EXISTS (SELECT 1 FROM review_claim c WHERE c.review_id = v.id AND NOT EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = c.position AND w.kind = 'pdf-text' AND w.verdict = 'pass') AND EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = c.position AND w.kind = 'source-document' AND w.verdict = 'pass')) AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = q.record_id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = q.record_id AND sc.review = ss.review_id)))) OR EXISTS (SELECT 1 FROM evidence s JOIN review v ON v.id = s.review
                      WHERE s.id = q.record_id AND v.status = 'source-checked' AND NOT EXISTS (SELECT 1 FROM review_claim c WHERE c.review_id = v.id AND NOT EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = c.position AND w.kind = 'pdf-text' AND w.verdict = 'pass') AND EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = c.position AND w.kind = 'source-document' AND w.verdict = 'pass')) AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = q.record_id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = q.record_id AND sc.review = ss.review_id)))))) THEN 'checked-against-pdf, ' ELSE '' END
       || CASE WHEN q.review_status = 'source-checked' AND NOT (EXISTS (SELECT 1 FROM review_subject s JOIN review v ON v.id = s.review_id
                      WHERE s.subject = q.record_id AND v.status = 'source-checked' AND NOT EXISTS (SELECT 1 FROM review_claim c WHERE c.review_id = v.id AND NOT EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = c.position AND w.kind = 'pdf-text' AND w.verdict = 'pass') AND EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = c.position AND w.kind = 'source-document' AND w.verdict = 'pass')) AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = q.record_id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = q.record_id AND sc.review = ss.review_id)))) OR EXISTS (SELECT 1 FROM evidence s JOIN review v ON v.id = s.review
                      WHERE s.id = q.record_id AND v.status = 'source-checked' AND NOT EXISTS (SELECT 1 FROM review_claim c WHERE c.review_id = v.id AND NOT EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = c.position AND w.kind = 'pdf-text' AND w.verdict = 'pass') AND EXISTS (SELECT 1 FROM review_claim_witness w WHERE w.review_id = v.id AND w.claim_position = c.position AND w.kind = 'source-document' AND w.verdict = 'pass')) AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = q.record_id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = q.record_id AND sc.review = ss.review_id))))) THEN 'checked-against-source-only, ' ELSE '' END
       || CASE WHEN q.review_status = 'review-failed' THEN 'review-failed, ' ELSE '' END
       || CASE WHEN q.review_status = 'could-not-be-checked' THEN 'could-not-be-checked, ' ELSE '' END
       || CASE WHEN EXISTS (SELECT 1 FROM attestation a WHERE a.subject = q.record_id AND a.stance = 'confirms' AND a.relation = 'author') THEN 'confirmed-by-author, ' ELSE '' END
       || CASE WHEN EXISTS (SELECT 1 FROM attestation a WHERE a.subject = q.record_id AND a.stance = 'confirms' AND a.relation <> 'author') THEN 'confirmed, ' ELSE '' END
       || CASE WHEN EXISTS (SELECT 1 FROM attestation a WHERE a.subject = q.record_id AND a.stance = 'disputes') THEN 'disputed, ' ELSE '' END
       || CASE WHEN q.version = 'superseded' OR EXISTS (SELECT 1 FROM attestation a WHERE a.subject = q.record_id AND a.stance = 'corrects') THEN 'corrected, ' ELSE '' END
       || CASE WHEN q.version = 'retracted' THEN 'retracted, ' ELSE '' END
       || CASE WHEN q.kind = 'reproduction' AND q.method = 'measured' OR EXISTS (SELECT 1 FROM reproduction rp WHERE rp.result = q.record_id AND rp.method = 'measured') THEN 'reproduced, ' ELSE '' END
       || CASE WHEN q.kind = 'reproduction' AND q.method = 'estimated' OR EXISTS (SELECT 1 FROM reproduction rp WHERE rp.result = q.record_id AND rp.method = 'estimated') THEN 'estimated, ' ELSE '' END, ', ') AS standing,
       (SELECT string_agg(a.person || ' (' || a.relation || ')', '; ' ORDER BY a.id) FROM attestation a WHERE a.subject = q.record_id AND a.stance = 'confirms') AS confirmed_by,
       (SELECT string_agg(a.person || ' (' || a.relation || ')' || ': ' || a.believed_value, '; ' ORDER BY a.id) FROM attestation a WHERE a.subject = q.record_id AND a.stance = 'disputes') AS disputed_by,
       q.record_page
FROM (SELECT rec.id AS record_id,
       rec.kind AS kind,
       CASE
         WHEN EXISTS (SELECT 1 FROM review_subject s JOIN review v ON v.id = s.review_id
                      WHERE s.subject = rec.id AND v.status = 'review-failed' AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = rec.id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = rec.id AND sc.review = ss.review_id)))) OR EXISTS (SELECT 1 FROM evidence s JOIN review v ON v.id = s.review
                      WHERE s.id = rec.id AND v.status = 'review-failed' AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = rec.id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = rec.id AND sc.review = ss.review_id)))) THEN 'review-failed'
         WHEN EXISTS (SELECT 1 FROM review_subject s JOIN review v ON v.id = s.review_id
                      WHERE s.subject = rec.id AND v.status = 'could-not-be-checked' AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = rec.id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = rec.id AND sc.review = ss.review_id)))) OR EXISTS (SELECT 1 FROM evidence s JOIN review v ON v.id = s.review
                      WHERE s.id = rec.id AND v.status = 'could-not-be-checked' AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = rec.id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = rec.id AND sc.review = ss.review_id)))) THEN 'could-not-be-checked'
         WHEN EXISTS (SELECT 1 FROM review_subject s JOIN review v ON v.id = s.review_id
                      WHERE s.subject = rec.id AND v.status = 'source-checked' AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = rec.id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = rec.id AND sc.review = ss.review_id)))) OR EXISTS (SELECT 1 FROM evidence s JOIN review v ON v.id = s.review
                      WHERE s.id = rec.id AND v.status = 'source-checked' AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = rec.id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = rec.id AND sc.review = ss.review_id)))) THEN 'source-checked'
         ELSE 'not-reviewed' END AS review_status,
       CASE WHEN EXISTS (SELECT 1 FROM review_subject s JOIN review v ON v.id = s.review_id
                      WHERE s.subject = rec.id AND v.status = 'source-checked' AND v.artifact_sha256 IS NOT NULL AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = rec.id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = rec.id AND sc.review = ss.review_id)))) OR EXISTS (SELECT 1 FROM evidence s JOIN review v ON v.id = s.review
                      WHERE s.id = rec.id AND v.status = 'source-checked' AND v.artifact_sha256 IS NOT NULL AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = rec.id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = rec.id AND sc.review = ss.review_id))))
            THEN 1 ELSE 0 END AS artifact_pinned,
       (SELECT COUNT(DISTINCT s.review_id) FROM review_subject s WHERE s.subject = rec.id) + (SELECT COUNT(DISTINCT s.review) FROM evidence s WHERE s.id = rec.id AND NOT EXISTS (SELECT 1 FROM review_subject o WHERE o.subject = rec.id AND o.review_id = s.review)) AS review_count,
       CASE WHEN rec.kind IN ('source', 'family', 'config', 'protocol', 'dataset', 'evaluation', 'result', 'evidence') THEN 1 ELSE 0 END AS transcribed,
       hs.status AS version,
       (SELECT rp.method FROM reproduction rp WHERE rp.id = rec.id) AS method,
       (SELECT m.value FROM registry_meta m WHERE m.key = 'site_url') || rec.kind || '/' || rec.id || '.html' AS record_page
FROM record rec JOIN record_status hs ON hs.record_id = rec.id) q;

CREATE VIEW failed_claims AS
SELECT q.record_id,
       q.kind,
       q.review_status,
       v.id AS review_id,
       v.reviewer,
       v.reviewed_at,
       v.artifact_sha256,
       c.position AS claim_position,
       c.claim,
       c.asserted,
       c.verdict,
       c.page,
       c.printed,
       c.detail,
       r.printed_value AS record_printed_value,
       r.unit AS record_unit,
       r.source AS source_id,
       q.record_page
FROM record_review_status q
JOIN review_subject s ON s.subject = q.record_id
JOIN review v ON v.id = s.review_id AND v.status = q.review_status
JOIN review_claim c ON c.review_id = v.id
LEFT JOIN result r ON r.id = q.record_id
WHERE q.review_status IN ('review-failed', 'could-not-be-checked')
  AND c.verdict <> 'pass' AND NOT EXISTS (SELECT 1 FROM review_superseded ss WHERE ss.superseded = v.id
                          AND (EXISTS (SELECT 1 FROM review_subject sc WHERE sc.subject = q.record_id AND sc.review_id = ss.review_id) OR EXISTS (SELECT 1 FROM evidence sc WHERE sc.id = q.record_id AND sc.review = ss.review_id)));

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
       st.review_found,
       st.standing,
       st.confirmed_by,
       st.disputed_by,
       (SELECT v.id FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id
        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1) AS latest_review_id,
       (SELECT v.reviewer FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id
        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1) AS latest_reviewer,
       (SELECT v.reviewed_at FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id
        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1) AS latest_reviewed_at,
       (SELECT COUNT(*) FROM missing_metadata m WHERE m.record_id = r.id) AS missing_metadata_count,
       (SELECT string_agg(m.field || ': ' || m.reason, '; ' ORDER BY m.position) FROM missing_metadata m WHERE m.record_id = r.id) AS missing_metadata,
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
       st.review_found,
       st.standing,
       st.confirmed_by,
       st.disputed_by,
       (SELECT v.id FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id
        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1) AS latest_review_id,
       (SELECT v.reviewer FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id
        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1) AS latest_reviewer,
       (SELECT v.reviewed_at FROM review_subject s JOIN review v ON v.id = s.review_id WHERE s.subject = r.id
        ORDER BY v.reviewed_at IS NULL, v.reviewed_at DESC, v.id LIMIT 1) AS latest_reviewed_at,
       (SELECT COUNT(*) FROM missing_metadata m WHERE m.record_id = r.id) AS missing_metadata_count,
       (SELECT string_agg(m.field || ': ' || m.reason, '; ' ORDER BY m.position) FROM missing_metadata m WHERE m.record_id = r.id) AS missing_metadata,
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

CREATE VIEW comparability AS
SELECT z.result_id,
       z.benchmark,
       z.split,
       z.metric,
       z.canonical_unit,
       z.setting,
       z.aggregate,
       z.input_length,
       z.hardware,
       z.canonical_value,
       z.direction,
       z.printed_value,
       z.unit,
       z.value_role,
       z.review_status,
       z.review_label,
       z.not_ranked_because,
       'benchmark=' || z.benchmark || '; split=' || z.split || '; metric=' || z.metric
       || '; unit=' || z.canonical_unit || '; setting=' || z.setting || '; aggregate=' || z.aggregate
       || '; input_length=' || z.input_length || '; hardware=' || z.hardware AS comparability_key
FROM (SELECT q.result_id,
       q.benchmark,
       COALESCE(lower(trim(q.split_raw)), 'unstated') AS split,
       q.metric,
       CASE WHEN CASE WHEN q.canonical_token = q.unit THEN 1.0
            WHEN u.scale_float IS NULL OR cu.scale_float IS NULL THEN NULL
            WHEN u.dimension = cu.dimension THEN u.scale_float / cu.scale_float
            WHEN q.proportion = 1 AND u.dimension = 'percentage' AND cu.dimension = 'dimensionless'
                 THEN u.scale_float / cu.scale_float / 100
            WHEN q.proportion = 1 AND u.dimension = 'dimensionless' AND cu.dimension = 'percentage'
                 THEN u.scale_float / cu.scale_float * 100
            ELSE NULL END IS NULL THEN q.unit ELSE q.canonical_token END AS canonical_unit,
       CASE WHEN q.setting_raw IS NULL THEN 'unstated'
            WHEN q.shots IS NOT NULL THEN q.setting_raw || ' (' || CAST(q.shots AS TEXT) || ' shots)'
            ELSE q.setting_raw END AS setting,
       CASE WHEN q.value_role = 'member' AND q.over_kind IS NULL THEN 'single run'
            WHEN q.value_role = 'member' THEN 'single ' || substr(q.over_kind, 1, length(q.over_kind) - 1) || CASE WHEN q.over_count IS NOT NULL THEN ' of ' || CAST(q.over_count AS TEXT) ELSE '' END
            WHEN q.over_kind IS NULL THEN 'single value'
            WHEN q.value_role = 'aggregate' OR lower(ltrim(q.aggregation)) LIKE 'mean%'
                 OR lower(ltrim(q.aggregation)) LIKE 'average%' THEN 'mean over ' || CASE WHEN q.over_count IS NOT NULL THEN CAST(q.over_count AS TEXT) || ' ' ELSE '' END || q.over_kind
            ELSE 'aggregate over ' || CASE WHEN q.over_count IS NOT NULL THEN CAST(q.over_count AS TEXT) || ' ' ELSE '' END || q.over_kind END AS aggregate,
       COALESCE(trim(q.input_length_raw), 'unstated') AS input_length,
       CASE WHEN u.dimension IS NULL OR u.dimension NOT IN ('compute-rate', 'energy', 'memory', 'power', 'throughput', 'time') THEN 'any'
            ELSE COALESCE((SELECT CASE WHEN h.count IS NOT NULL THEN CAST(h.count AS TEXT) || ' × ' || h.accelerator ELSE h.accelerator END FROM result_hardware h WHERE h.result_id = q.result_id ORDER BY h.position LIMIT 1),
                          (SELECT CASE WHEN h.count IS NOT NULL THEN CAST(h.count AS TEXT) || ' × ' || h.accelerator ELSE h.accelerator END FROM config_hardware h WHERE h.config_id = q.config_id ORDER BY h.position LIMIT 1),
                          'unstated') END AS hardware,
       q.numeric_value_float * (CASE WHEN q.canonical_token = q.unit THEN 1.0
            WHEN u.scale_float IS NULL OR cu.scale_float IS NULL THEN NULL
            WHEN u.dimension = cu.dimension THEN u.scale_float / cu.scale_float
            WHEN q.proportion = 1 AND u.dimension = 'percentage' AND cu.dimension = 'dimensionless'
                 THEN u.scale_float / cu.scale_float / 100
            WHEN q.proportion = 1 AND u.dimension = 'dimensionless' AND cu.dimension = 'percentage'
                 THEN u.scale_float / cu.scale_float * 100
            ELSE NULL END) AS canonical_value,
       q.direction,
       q.printed_value,
       q.unit,
       q.value_role,
       q.review_status,
       q.review_label,
       CASE WHEN q.bound IS NOT NULL
                 THEN 'it is a bound (''' || q.bound || ' ' || q.printed_value || '''), not one value'
            WHEN q.range_upper IS NOT NULL
                 THEN 'it is a range (''' || q.printed_value || '–' || q.range_upper || '''), not one value'
            WHEN q.value_role = 'member'
                 THEN 'it is one of the values a printed mean is taken over (one fold or seed); the mean is ranked'
            WHEN q.value_role = 'derived'
                 THEN 'it is derived from other values (a difference, ratio or speed-up), not a score'
            WHEN q.direction IS NULL THEN 'no direction is better for ' || q.metric_slug
            ELSE NULL END AS not_ranked_because
FROM (
SELECT f.result_id,
       f.printed_value,
       f.numeric_value_float,
       f.unit,
       f.bound,
       f.range_upper_printed_value AS range_upper,
       f.metric AS metric_slug,
       f.value_role,
       f.review_status,
       f.review_label,
       f.configuration_id AS config_id,
       COALESCE(d.benchmark, f.dataset_id) AS benchmark,
       e.split AS split_raw,
       e.setting AS setting_raw,
       e.shots,
       e.input_length AS input_length_raw,
       e.aggregation,
       CASE WHEN e.aggregated_over_kind IS NOT NULL THEN e.aggregated_over_kind
            WHEN f.uncertainty_over_kind IN ('folds', 'runs', 'seeds') THEN f.uncertainty_over_kind END AS over_kind,
       CASE WHEN e.aggregated_over_kind IS NOT NULL THEN e.aggregated_over_count
            WHEN f.uncertainty_over_kind IN ('folds', 'runs', 'seeds') THEN f.uncertainty_over_count END AS over_count,
       COALESCE(m.column2, f.metric) AS metric,
       m.column4 AS proportion,
       CASE WHEN m.column1 IS NOT NULL THEN m.column5 ELSE f.metric_direction END AS direction,
       COALESCE(m.column3,
                CASE WHEN fu.scale IS NULL THEN f.unit
                     ELSE COALESCE((SELECT MIN(b.token) FROM unit b WHERE b.dimension = fu.dimension
                                    AND b.scale_float = 1), f.unit) END) AS canonical_token
FROM results_flat f
JOIN evaluation e ON e.id = f.evaluation_id
JOIN dataset d ON d.id = f.dataset_id
LEFT JOIN unit fu ON fu.token = f.unit
LEFT JOIN (VALUES ('accuracy', 'accuracy', 'percent', 1, 'higher'),
               ('acc', 'accuracy', 'percent', 1, 'higher'),
               ('top1', 'accuracy', 'percent', 1, 'higher'),
               ('top-1', 'accuracy', 'percent', 1, 'higher'),
               ('top-1-accuracy', 'accuracy', 'percent', 1, 'higher'),
               ('top1-accuracy', 'accuracy', 'percent', 1, 'higher'),
               ('top-5-accuracy', 'top-5-accuracy', 'percent', 1, 'higher'),
               ('top5', 'top-5-accuracy', 'percent', 1, 'higher'),
               ('top-5', 'top-5-accuracy', 'percent', 1, 'higher'),
               ('top5-accuracy', 'top-5-accuracy', 'percent', 1, 'higher'),
               ('balanced-accuracy', 'balanced-accuracy', 'percent', 1, 'higher'),
               ('f1', 'f1', 'percent', 1, 'higher'),
               ('f1-score', 'f1', 'percent', 1, 'higher'),
               ('macro-f1', 'f1', 'percent', 1, 'higher'),
               ('f1-macro', 'f1', 'percent', 1, 'higher'),
               ('precision', 'precision', 'percent', 1, 'higher'),
               ('recall', 'recall', 'percent', 1, 'higher'),
               ('mcc', 'mcc', 'dimensionless', 1, 'higher'),
               ('matthews-correlation', 'mcc', 'dimensionless', 1, 'higher'),
               ('auroc', 'auroc', 'dimensionless', 1, 'higher'),
               ('auc', 'auroc', 'dimensionless', 1, 'higher'),
               ('roc-auc', 'auroc', 'dimensionless', 1, 'higher'),
               ('auc-roc', 'auroc', 'dimensionless', 1, 'higher'),
               ('auprc', 'auprc', 'dimensionless', 1, 'higher'),
               ('pr-auc', 'auprc', 'dimensionless', 1, 'higher'),
               ('average-precision', 'auprc', 'dimensionless', 1, 'higher'),
               ('perplexity', 'perplexity', 'dimensionless', 0, 'lower'),
               ('ppl', 'perplexity', 'dimensionless', 0, 'lower'),
               ('peak-memory', 'peak-memory', 'gigabyte', 0, 'lower'),
               ('memory', 'peak-memory', 'gigabyte', 0, 'lower'),
               ('max-memory', 'peak-memory', 'gigabyte', 0, 'lower'),
               ('latency', 'latency', 'millisecond', 0, 'lower'),
               ('step-time', 'step-time', 'second', 0, 'lower'),
               ('p-value', 'p-value', 'dimensionless', 0, NULL)) m ON m.column1 = f.metric) q
LEFT JOIN unit u ON u.token = q.unit
LEFT JOIN unit cu ON cu.token = q.canonical_token) z;

CREATE VIEW leaderboard AS
SELECT k.comparability_key,
       k.benchmark,
       k.metric,
       RANK() OVER (PARTITION BY k.comparability_key ORDER BY CASE WHEN k.direction = 'higher' THEN -k.canonical_value ELSE k.canonical_value END) AS rank,
       k.canonical_value,
       k.canonical_unit,
       k.direction,
       k.printed_value,
       k.unit,
       k.review_status,
       k.review_label,
       f.disputed_by,
       f.reported_name,
       f.configuration_name,
       f.model_family_name,
       f.source_id,
       f.source_locator_page,
       k.split,
       k.setting,
       k.aggregate,
       k.input_length,
       k.hardware,
       k.result_id,
       f.result_page
FROM comparability k
JOIN results_flat f ON f.result_id = k.result_id
WHERE k.not_ranked_because IS NULL;

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
