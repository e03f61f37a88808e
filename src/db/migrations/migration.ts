// What one migration is: its id (the order it runs in), its name and its SQL.
export interface Migration {
  id: number;
  name: string;
  sql: string;
}
