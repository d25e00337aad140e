/** Ends the program with this code and message (thrown inside cli/, caught by main). */
export class Exit extends Error {
  constructor(
    readonly exitCode: number,
    message?: string,
  ) {
    super(message ?? '');
  }
}
