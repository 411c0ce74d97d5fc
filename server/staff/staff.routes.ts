import { staffContracts } from '#common/contracts/staff.ts';
import { ApiRoutes } from '../http/endpoint.ts';

/** The staff side of the JSON API: the audit log and the transparency report for automation (the console reads it through the same use cases). */
export const staffRoutes = new ApiRoutes()
  .endpoint(staffContracts.auditLog, async (c, { query, staff }) => c.json(await c.get('ctx').services.console.auditLog(staff, query)))
  .endpoint(staffContracts.auditLogCsv, async (c, { query, staff }) => {
    const { filename, csv } = await c.get('ctx').services.console.auditLogCsv(staff, query);
    return c.body(csv, 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"` });
  })
  .endpoint(staffContracts.transparencyReport, async (c, { query, staff }) => c.json(await c.get('ctx').services.console.transparencyReport(staff, query)))
  .endpoint(staffContracts.transparencyReportCsv, async (c, { query, staff }) => {
    const { filename, csv } = await c.get('ctx').services.console.transparencyReportCsv(staff, query);
    return c.body(csv, 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"` });
  })
  .endpoint(staffContracts.dashboard, async (c, { query, staff }) => c.json(await c.get('ctx').services.console.dashboard(staff, query)))
  .endpoint(staffContracts.dashboardCsv, async (c, { query, staff }) => {
    const { filename, csv } = await c.get('ctx').services.console.dashboardCsv(staff, query);
    return c.body(csv, 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${filename}"` });
  });
