import { describe, expect, it } from 'vitest';
import {
  canCreateAgent,
  getAgentLimitMessage,
  getAgentPlan,
  getNewAgentAutonomy,
  getUpdatedAutonomy,
  isAgentLimitError,
} from './agent-limits.ts';

const premium = (tier: string) => ({ isPremium: true, tier });
const free = { isPremium: false, tier: 'free' };

describe('agent plan limits', () => {
  it('1 for free members and unrecognised tiers, 2 for connector, 5 for vip', () => {
    expect(getAgentPlan(undefined)).toEqual({ agentLimit: 1, advancedAgents: false });
    expect(getAgentPlan(free)).toEqual({ agentLimit: 1, advancedAgents: false });
    expect(getAgentPlan(premium('premium'))).toEqual({ agentLimit: 1, advancedAgents: false });
    expect(getAgentPlan(premium('enterprise'))).toEqual({ agentLimit: 1, advancedAgents: false });
    expect(getAgentPlan(premium('connector'))).toEqual({ agentLimit: 2, advancedAgents: true });
    expect(getAgentPlan(premium('Connector-Yearly'))).toEqual({ agentLimit: 2, advancedAgents: true });
    expect(getAgentPlan(premium('vip'))).toEqual({ agentLimit: 5, advancedAgents: true });
  });

  it('a tier name alone grants nothing without a paid plan that counts', () => {
    expect(getAgentPlan({ isPremium: false, tier: 'vip' }).agentLimit).toBe(1);
  });

  it('creation is blocked once the count reaches the limit', () => {
    expect(canCreateAgent(premium('connector'), 1)).toBe(true);
    expect(canCreateAgent(premium('connector'), 2)).toBe(false);
    expect(canCreateAgent(free, 0)).toBe(true);
    expect(canCreateAgent(free, 1)).toBe(false);
  });
});

describe('autonomy', () => {
  it('a non-subscriber’s new agent is low whatever was asked', () => {
    expect(getNewAgentAutonomy(free)).toBe('low');
    expect(getNewAgentAutonomy(free, 'high')).toBe('low');
    expect(getNewAgentAutonomy(undefined, 'medium')).toBe('low');
  });

  it('high is forced to low without advanced agents, on create and update', () => {
    expect(getNewAgentAutonomy(premium('premium'), 'high')).toBe('low');
    expect(getNewAgentAutonomy(premium('premium'))).toBe('medium');
    expect(getUpdatedAutonomy(premium('premium'), 'high')).toBe('low');
    expect(getUpdatedAutonomy(free, 'medium')).toBe('medium');
    expect(getUpdatedAutonomy(premium('vip'), 'high')).toBe('high');
    expect(getNewAgentAutonomy(premium('connector'), 'high')).toBe('high');
  });
});

describe('messages and errors', () => {
  it('words the limit like the spec', () => {
    expect(getAgentLimitMessage(free)).toBe(
      'Free users can create 1 AI agent. Upgrade to create more advanced agents.',
    );
    expect(getAgentLimitMessage(premium('vip'))).toBe(
      "You've reached your plan's limit of 5 agents. Upgrade to create more.",
    );
  });

  it('recognises the database refusal', () => {
    expect(isAgentLimitError({ code: 'P0001', message: 'agent_limit_reached' })).toBe(true);
    expect(isAgentLimitError({ code: 'P0001', message: 'other' })).toBe(false);
    expect(isAgentLimitError(null)).toBe(false);
    expect(isAgentLimitError('agent_limit_reached')).toBe(false);
  });
});
