DROP INDEX score_history_chart;
CREATE INDEX score_history_by_user ON score_history (user_id, id);
