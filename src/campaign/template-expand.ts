/**
 * Expands each instance of a file's `templates:` into an ordinary ProjectSpec: address = the
 * instance's key, organization = its organization, message = the variant its language names,
 * schedule.at = the template's (or the instance's) local time in its timezone, merge_defaults merged
 * instance over template over file, and every other key the instance's, else the template's, else
 * the file's `defaults`. `locate` answers where each value was written (template-locate.ts); each
 * project remembers its `origin`, and its findings point at both places (template-origin.ts). Pure.
 */
import type { Document, Node } from "yaml";
import type { Diagnostic, SourceRange } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../text/did-you-mean.js";
import { own } from "../text/names.js";
import type { MessageVariant, ProjectSpec, TemplateSpec } from "./model.js";
import { buildProjectSpec } from "./project-spec.js";
import type { RawCampaignDocument, RawInstance, RawProjectKeys, RawTemplate } from "./raw.js";
import { rangeAt, type SourceText } from "./source-range.js";
import type { InstanceDeclaration } from "./template-declarations.js";
import { templateLocators } from "./template-locate.js";
import { rememberOrigin } from "./template-origin.js";
import { localToAt } from "./template-schedule.js";
import { findPath, type Span } from "./yaml-path.js";

export interface TemplateInput {
  readonly source: SourceText;
  readonly doc: Document;
  readonly defaultsNode: Node | undefined;
}

export interface Expansion {
  readonly projects: readonly ProjectSpec[];
  readonly templates: readonly TemplateSpec[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The projects of `raw.templates` (schema-valid: the loader left out what is not), skipping the
 * instances in `skip` (their address is declared twice in the file, or they cannot be trusted).
 */
export function expandTemplates(
  raw: RawCampaignDocument,
  input: TemplateInput,
  declarations: readonly InstanceDeclaration[],
  skip: ReadonlySet<string>,
): Expansion {
  const projects: ProjectSpec[] = [];
  const diagnostics: Diagnostic[] = [];
  const templates: TemplateSpec[] = [];
  const { source, doc } = input;
  const rangeOf = (span: Span) => rangeAt(source, span[0], span[1]);
  const valueRange = (base: Node | undefined, path: readonly string[], fallback: SourceRange) => {
    const hit = base === undefined ? undefined : findPath(doc, base, path);
    const span = hit?.complete ? (hit.value ?? hit.key) : undefined;
    return span ? rangeOf(span) : fallback;
  };
  const specs = new Map<string, { spec: TemplateSpec; instances: TemplateSpec["instances"][number][] }>();
  const specOf = (name: string, template: RawTemplate, declaration: InstanceDeclaration) => {
    const known = specs.get(name);
    if (known !== undefined) return known;
    const variants = Object.entries(template.message).map(([language, text]) =>
      variantOf(language, text, declaration.templateNode, input),
    );
    const instances: TemplateSpec["instances"][number][] = [];
    const spec: TemplateSpec = {
      name,
      file: source.file,
      range: rangeOf(declaration.templateSpan),
      variants,
      instances,
      optOutFooter: template.opt_out_footer === true,
    };
    specs.set(name, { spec, instances });
    templates.push(spec);
    return { spec, instances };
  };
  for (const declaration of declarations) {
    const template = own(raw.templates, declaration.template);
    const instance = own(template?.instances, declaration.address);
    if (template === undefined) continue;
    const { instances } = specOf(declaration.template, template, declaration);
    if (instance === undefined || skip.has(declaration.address)) continue;
    const keyRange = rangeOf(declaration.span);
    const templateRange = rangeOf(declaration.templateSpan);
    const related = [{ message: `template \`${declaration.template}\``, range: templateRange }];
    const text = own(template.message, instance.language);
    if (text === undefined) {
      const languages = Object.keys(template.message);
      const near = didYouMean(instance.language, languages);
      diagnostics.push({
        severity: "error",
        code: "campaign.template-language-unknown",
        message: `instance \`${declaration.address}\` asks for language \`${instance.language}\`, but template \`${declaration.template}\` has no such message variant (it has ${languages.map((l) => `\`${l}\``).join(", ")})`,
        range: valueRange(declaration.node, ["language"], keyRange),
        hint:
          near === undefined
            ? `write one of ${languages.join(", ")}, or add a \`${instance.language}\` variant under the template's \`message\``
            : `did you mean \`${near}\`?`,
        related: [
          {
            message: "the template's message variants",
            range: valueRange(declaration.templateNode, ["message"], templateRange),
          },
        ],
      });
      continue;
    }
    instances.push({
      address: declaration.address,
      organization: instance.organization,
      language: instance.language,
      range: keyRange,
      optOutFooter:
        (instance.opt_out_footer ?? template.opt_out_footer ?? raw.defaults?.opt_out_footer) === true,
    });
    const schedule = scheduleOf(template, instance);
    if (schedule.kind === "missing-zone" || schedule.kind === "skipped") {
      const inInstance = instance.schedule !== undefined;
      const where = inInstance ? declaration.node : declaration.templateNode;
      diagnostics.push({
        severity: "error",
        code:
          schedule.kind === "skipped"
            ? "campaign.template-local-time-skipped"
            : "campaign.template-timezone-missing",
        message:
          schedule.kind === "skipped"
            ? `instance \`${declaration.address}\`: the local send time ${schedule.local} does not exist in ${schedule.zone} (clocks spring forward over it that night)`
            : `instance \`${declaration.address}\`: the schedule is a local time (${schedule.local}) but no \`timezone\` says where`,
        range: valueRange(where, ["schedule", "local"], keyRange),
        hint:
          schedule.kind === "skipped"
            ? "choose a time outside the skipped hour (such as an hour later)"
            : "add `timezone:` (one of America/New_York, America/Chicago, America/Denver, America/Los_Angeles, America/Anchorage, Pacific/Honolulu) to the instance or the template",
        related: inInstance
          ? related
          : [{ message: `for instance \`${declaration.address}\``, range: keyRange }],
      });
      continue;
    }
    if (schedule.kind === "at" && schedule.later !== undefined) {
      const inInstance = instance.schedule !== undefined;
      const where = inInstance ? declaration.node : declaration.templateNode;
      diagnostics.push({
        severity: "warning",
        code: "campaign.template-local-time-repeated",
        message: `instance \`${declaration.address}\`: the local send time ${schedule.local} happens twice in ${schedule.schedule.timezone} (clocks fall back that night): the first is taken, ${schedule.schedule.at}, not ${schedule.later}`,
        range: valueRange(where, ["schedule", "local"], keyRange),
        hint: `choose a time outside the repeated hour; to send at the second, describe the project under \`projects:\` with \`schedule: {at: "${schedule.later}"}\``,
        related: inInstance
          ? related
          : [{ message: `for instance \`${declaration.address}\``, range: keyRange }],
      });
    }
    projects.push(expandOne(declaration, template, instance, text, schedule, raw, input));
  }
  return { projects, templates, diagnostics };
}

type ScheduleOutcome =
  | { readonly kind: "none" }
  | {
      readonly kind: "at";
      readonly schedule: NonNullable<RawProjectKeys["schedule"]>;
      readonly local: string;
      /** The second of a time that happens twice, not taken. */
      readonly later?: string;
    }
  | { readonly kind: "missing-zone"; readonly local: string }
  | { readonly kind: "skipped"; readonly local: string; readonly zone: string };

function scheduleOf(template: RawTemplate, instance: RawInstance): ScheduleOutcome {
  const local = instance.schedule ?? template.schedule;
  if (local === undefined) return { kind: "none" };
  const zone = instance.timezone ?? local.timezone ?? template.timezone;
  if (zone === undefined) return { kind: "missing-zone", local: local.local };
  const at = localToAt(local.local, zone);
  if (at.kind === "skipped") return { kind: "skipped", local: local.local, zone };
  return {
    kind: "at",
    local: local.local,
    ...(at.later === undefined ? {} : { later: at.later }),
    schedule: {
      at: at.at,
      timezone: zone,
      ...(local.daily_cap_bypass === undefined ? {} : { daily_cap_bypass: local.daily_cap_bypass }),
    },
  };
}

function expandOne(
  declaration: InstanceDeclaration,
  template: RawTemplate,
  instance: RawInstance,
  text: string,
  schedule: ScheduleOutcome,
  raw: RawCampaignDocument,
  input: TemplateInput,
): ProjectSpec {
  const {
    message: _message,
    instances: _instances,
    timezone: _tz,
    merge_defaults: templateDefaults,
    schedule: _ts,
    ...templateKeys
  } = template;
  const {
    organization,
    language,
    timezone: _iz,
    merge_defaults: instanceDefaults,
    schedule: _is,
    ...instanceKeys
  } = instance;
  const keys: RawProjectKeys = Object.assign(
    {},
    templateKeys,
    instanceKeys,
    { message: text },
    // Only `schedule.local` schedules an instance: the file's `defaults.schedule` (an absolute
    // time) would ignore the instance's own timezone.
    { schedule: schedule.kind === "at" ? schedule.schedule : undefined },
  );
  const built = buildProjectSpec(declaration.address, keys, raw, {
    source: input.source,
    doc: input.doc,
    node: declaration.node,
    keySpan: declaration.span,
    defaultsNode: input.defaultsNode,
  });
  const { source, doc } = input;
  const keyRange = built.range;
  const locators = templateLocators({
    source,
    doc,
    instanceNode: declaration.node,
    templateNode: declaration.templateNode,
    defaultsNode: input.defaultsNode,
    instanceKeys: new Set(Object.keys(instance)),
    templateKeys: new Set(Object.keys(template)),
    defaultsKeys: new Set(Object.keys(raw.defaults ?? {})),
    language,
    keyRange,
  });
  const project: ProjectSpec = {
    ...built,
    organization,
    mergeDefaults: { ...raw.merge_defaults, ...templateDefaults, ...instanceDefaults },
    ...locators,
    origin: {
      template: declaration.template,
      instance: declaration.address,
      language,
      templateRange: rangeAt(source, declaration.templateSpan[0], declaration.templateSpan[1]),
      instanceRange: keyRange,
    },
  };
  const span = declaration.node?.range;
  rememberOrigin(project, span ? [span[0], span[1]] : declaration.span);
  return project;
}

function variantOf(
  language: string,
  text: string,
  templateNode: Node | undefined,
  input: TemplateInput,
): MessageVariant {
  const project = templateLocators({
    source: input.source,
    doc: input.doc,
    instanceNode: undefined,
    templateNode,
    defaultsNode: undefined,
    instanceKeys: new Set(),
    templateKeys: new Set(["message"]),
    defaultsKeys: new Set(),
    language,
    keyRange: rangeAt(input.source, templateNode?.range?.[0] ?? 0, templateNode?.range?.[0] ?? 0),
  });
  return { language, text, range: project.locate(["message"]), locateInMessage: project.locateInMessage };
}
