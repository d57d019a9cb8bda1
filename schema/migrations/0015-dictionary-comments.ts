// Once: the data dictionary as PostgreSQL comments. They are repeatable objects now (schema/repeatables.ts),
// applied after the migrations from today's dictionary; this migration, frozen, does nothing.
export async function up(): Promise<void> {}
