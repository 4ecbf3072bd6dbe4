// Grants Sightline's multi-tenant Entra ID application what it needs to analyse one Azure
// subscription, and nothing more (see README.md): its service principal in the tenant, admin
// consent to three read-only Microsoft Graph application permissions, and Reader on the
// subscription. Uses the Microsoft Graph Bicep extension (bicepconfig.json beside this file).
//
//   az deployment sub create --location westeurope --template-file deploy/azure/sightline-access.bicep \
//     --parameters sightlineClientId=<Sightline's application (client) ID>
//
// The deploying identity needs AppRoleAssignment.ReadWrite.All and Application.ReadWrite.All
// in Microsoft Graph (e.g. Privileged Role Administrator + Cloud Application Administrator) and
// Microsoft.Authorization/roleAssignments/write on the subscription (Owner or User Access
// Administrator).
targetScope = 'subscription'

extension microsoftGraphV1

@description('Application (client) ID of Sightline\'s multi-tenant application, given by the Sightline operator.')
param sightlineClientId string

// Microsoft Graph's application ID, the same in every tenant and cloud.
var graphAppId = '00000003-0000-0000-c000-000000000000'
var graphPermissions = [
  'GroupMember.Read.All'
  'User.Read.All'
  'Application.Read.All'
]
// The built-in Reader role.
var readerRoleId = 'acdd72a7-3385-48ef-bd42-f606fba81ae7'

resource graph 'Microsoft.Graph/servicePrincipals@v1.0' existing = {
  appId: graphAppId
}

// Sightline's service principal in this tenant: the local instance of its application.
resource sightline 'Microsoft.Graph/servicePrincipals@v1.0' = {
  appId: sightlineClientId
}

// Admin consent to each Graph application permission is an app role assignment.
resource graphGrants 'Microsoft.Graph/appRoleAssignedTo@v1.0' = [
  for permission in graphPermissions: {
    principalId: sightline.id
    resourceId: graph.id
    appRoleId: filter(graph.appRoles, role => role.value == permission && contains(role.allowedMemberTypes, 'Application'))[0].id
  }
]

resource reader 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(subscription().id, sightlineClientId, readerRoleId)
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', readerRoleId)
    principalId: sightline.id
    principalType: 'ServicePrincipal'
    description: 'Sightline reads the subscription\'s role configuration and resources'
  }
}

output tenantId string = tenant().tenantId
output servicePrincipalId string = sightline.id
