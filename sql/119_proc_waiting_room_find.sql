-- One opening, in the columns AdmissionRows.OpeningColumns names, in its order; no row when none.
CREATE OR ALTER PROCEDURE dbo.waiting_room_find
    @id bigint
AS
BEGIN
    SET NOCOUNT ON;
    SELECT id, scope, opens_at, admit_per_second, admission_seconds, abandon_allowance, state, created_at, closed_at,
           joined, pre_queue, shuffle_key, served, seats_left, advanced_at, credit_at_ms, version
    FROM dbo.waiting_room_openings WITH (SNAPSHOT) WHERE id = @id;
END
GO
