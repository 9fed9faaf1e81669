import { destinationTexts } from '../shared/destination-texts.ts'
import { typeRegistry } from '../type-registry/index.ts'
import { chatwork } from './kinds/chatwork.ts'
import { discord } from './kinds/discord.ts'
import { email } from './kinds/email.ts'
import { hangoutsChat } from './kinds/hangouts-chat.ts'
import { hipchat } from './kinds/hipchat.ts'
import type { DestinationKind } from './kinds/kind.ts'
import { mattermost } from './kinds/mattermost.ts'
import { pagerduty } from './kinds/pagerduty.ts'
import { slack } from './kinds/slack.ts'
import { teams } from './kinds/teams.ts'
import { webhook } from './kinds/webhook.ts'

/**
 * The alert destination types (spec 3 §2, reference §1.7). Their secrets are sealed under their own purpose, apart
 * from data sources' (never change it: it is part of every stored secret).
 */
export const destinationTypes = typeRegistry<DestinationKind>({
  types: [email, slack, webhook, discord, mattermost, chatwork, pagerduty, hangoutsChat, teams, hipchat],
  secretsPurpose: 'destination-secrets',
  unknownType: destinationTexts.unknownType,
})
