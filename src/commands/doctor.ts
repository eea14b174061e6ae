import type { Context, DoctorInput } from '../cli-inputs.js';
import { runDoctor } from '../flows/doctor.js';
import { writeDoctorReport } from '../ui/doctor-output.js';

/** `econsig doctor`: every check on one line; exit 0, or the code of the first failure. */
export async function run(_input: DoctorInput, ctx: Context): Promise<number> {
  const report = await runDoctor({ env: ctx.env, globals: ctx.globals });
  writeDoctorReport(ctx.io, report);
  return report.exitCode;
}
