-- A delivery refused before any attempt: its alert had used its budget of notifications to that destination for the
-- hour (src/alerts/delivery-budget.ts). Recorded, with the reason in last_error, rather than dropped.
alter table alert_deliveries drop constraint alert_deliveries_status_check;
alter table alert_deliveries add constraint alert_deliveries_status_check
  check (status in ('pending', 'sending', 'sent', 'failed', 'refused'));
-- the budget counts one alert's recent deliveries to one destination
create index alert_deliveries_budget on alert_deliveries (alert_id, destination_id, created_at) where destination_id is not null;
