-- A new opening of the waiting room (open, state 1); answers one row, its id. Interpreted, like the
-- waiting room's other procs (sql/055-057): the memory-optimized table is written WITH (SNAPSHOT).
CREATE OR ALTER PROCEDURE dbo.waiting_room_create
    @scope     nvarchar(max),
    @opens_at  bigint,
    @rate      float,
    @admission bigint,
    @allowance bigint,
    @now       bigint
AS
BEGIN
    SET NOCOUNT ON;
    INSERT dbo.waiting_room_openings WITH (SNAPSHOT) (scope, opens_at, admit_per_second, admission_seconds, abandon_allowance, state, created_at)
    VALUES (@scope, @opens_at, @rate, @admission, @allowance, 1, @now);
    SELECT CAST(SCOPE_IDENTITY() AS bigint) AS id;
END
GO
