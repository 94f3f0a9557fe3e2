// AI agent plan rules of members-area §5, §6 and §9, mirrored from the SQL triggers on ai_agents
// (0010_ai_agents.sql is the authority; the browser uses these for a fast, offline answer).
import type { Entitlement } from './subscription.ts';

export const AUTONOMY_LEVELS = ['low', 'medium', 'high'] as const;
export type AutonomyLevel = (typeof AUTONOMY_LEVELS)[number];

/** The defaults of a new agent (§9); the SQL column defaults are the same. */
export const NEW_AGENT_DEFAULTS = {
  name: 'New Agent',
  description: 'Your personal AI dating assistant',
  communicationStyle: 'casual',
  humorStyle: 'witty',
  autonomyLevel: 'medium' as AutonomyLevel,
  autoMatchThreshold: 80,
  personalityTraits: ['supportive', 'helpful'],
  interests: ['relationships', 'communication'],
  firstMessage: "Hi, I'm here to help with your dating journey!",
  systemPrompt: 'You are a helpful dating assistant',
  isActive: false,
} as const;

export interface AgentPlan {
  agentLimit: number;
  advancedAgents: boolean;
}

type PlanInput = Pick<Entitlement, 'isPremium' | 'tier'> | undefined;

/** 1 agent for free members and unrecognised tiers, 2 for a connector tier, 5 for a vip tier. */
export function getAgentPlan(entitlement: PlanInput): AgentPlan {
  const tier = (entitlement?.tier ?? '').toLowerCase();
  if (entitlement?.isPremium && tier.includes('vip')) return { agentLimit: 5, advancedAgents: true };
  if (entitlement?.isPremium && tier.includes('connector')) return { agentLimit: 2, advancedAgents: true };
  return { agentLimit: 1, advancedAgents: false };
}

export function canCreateAgent(entitlement: PlanInput, agentCount: number): boolean {
  return agentCount < getAgentPlan(entitlement).agentLimit;
}

/** The autonomy a new agent is stored with: low for non-subscribers; high only on advanced plans. */
export function getNewAgentAutonomy(
  entitlement: PlanInput,
  requested: AutonomyLevel = 'medium',
): AutonomyLevel {
  if (!entitlement?.isPremium) return 'low';
  return getUpdatedAutonomy(entitlement, requested);
}

/** The autonomy an edited agent is stored with: high is forced to low without advanced agents. */
export function getUpdatedAutonomy(entitlement: PlanInput, requested: AutonomyLevel): AutonomyLevel {
  return requested === 'high' && !getAgentPlan(entitlement).advancedAgents ? 'low' : requested;
}

/** The "Agent Limit Reached" text of §8. */
export function getAgentLimitMessage(entitlement: PlanInput): string {
  if (!entitlement?.isPremium)
    return 'Free users can create 1 AI agent. Upgrade to create more advanced agents.';
  const { agentLimit } = getAgentPlan(entitlement);
  return `You've reached your plan's limit of ${agentLimit} agents. Upgrade to create more.`;
}

/** Whether a database/REST error is the plan-limit refusal of the ai_agents insert trigger. */
export function isAgentLimitError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown };
  return e.code === 'P0001' && e.message === 'agent_limit_reached';
}
