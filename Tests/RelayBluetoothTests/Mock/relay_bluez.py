'''bluetoothd mock for Relay's tests (Docs/BLUETOOTH.md, "Tests without a radio")

python-dbusmock's bluez5 template, plus what it lacks and Relay needs:

- org.bluez.ProfileManager1: RegisterProfile / UnregisterProfile, remembering each
  profile's sender, path, UUID and role;
- org.bluez.AgentManager1 that remembers which connection registered each agent;
- Device1.Pair that asks every registered agent to confirm one passkey (the caller's
  agent about the device being paired, the others about the other device, as the
  remote bluetoothd would), and fails with AuthenticationRejected on any "no";
- Device1.ConnectProfile that makes a socketpair() and calls the server profile's
  NewConnection with one end and the caller's client profile's with the other, so both
  agents talk over a real passed file descriptor; the mock keeps both ends, as
  bluetoothd keeps its copy, and DropLinks() shuts them down (link loss);
- discovery that reveals wearables added with AddHiddenWearable only once it runs.
'''

import socket

import dbus

from dbusmock import mockobject
from dbusmock.templates import bluez5
# Re-exported so that AddTemplate puts them on the mock's main object, as bluez5 does.
from dbusmock.templates.bluez5 import (  # noqa: F401 pylint: disable=unused-import
    AddAdapter, AddDevice, PairDevice, BlockDevice, ConnectDevice, DisconnectDevice, RemoveAdapter,
    RemoveAdapterWithDevices)

BUS_NAME = bluez5.BUS_NAME
MAIN_OBJ = bluez5.MAIN_OBJ
SYSTEM_BUS = True
IS_OBJECT_MANAGER = True

MOCK_IFACE = bluez5.BLUEZ_MOCK_IFACE
PROFILE_MANAGER_IFACE = bluez5.PROFILE_MANAGER_IFACE
AGENT_MANAGER_IFACE = bluez5.AGENT_MANAGER_IFACE
ADAPTER_IFACE = bluez5.ADAPTER_IFACE
DEVICE_IFACE = bluez5.DEVICE_IFACE
PROFILE_IFACE = 'org.bluez.Profile1'
AGENT_IFACE = 'org.bluez.Agent1'

RELAY_UUID = 'bab20998-bcad-409a-b8b1-5cc835f114af'


def _ignore(*_args):
    pass


def _manager():
    return mockobject.objects['/org/bluez']


def _announce(name, args):
    '''MethodCalled on /org/bluez, so tests can await what happened without sleeping.'''
    manager = _manager()
    manager.log(name + ' ' + ' '.join(str(a) for a in args))
    manager.MethodCalled(name, [dbus.String(str(a)) for a in args])


def _error(name, message):
    return dbus.exceptions.DBusException(message, name=name)


def _set_device(device, changes):
    for key, value in changes.items():
        device.props[DEVICE_IFACE][key] = value
    device.EmitSignal(dbus.PROPERTIES_IFACE, 'PropertiesChanged', 'sa{sv}as', [DEVICE_IFACE, changes, []])


def _other_device(device_path):
    '''The device the remote side sees: the phone, as the wearable's bluetoothd knows it.'''
    for path, obj in mockobject.objects.items():
        if path != device_path and DEVICE_IFACE in obj.props:
            return path
    return '/org/bluez/hci0/dev_00_00_00_00_00_00'


# ProfileManager1

@dbus.service.method(PROFILE_MANAGER_IFACE, in_signature='osa{sv}', out_signature='', sender_keyword='sender')
def RegisterProfile(_manager_object, path, uuid, options, sender=None):
    manager = _manager()
    key = (str(sender), str(path))
    if key in manager.relay_profiles:
        raise _error('org.bluez.Error.AlreadyExists', 'Already Exists')
    role = str(options.get('Role', 'server' if 'Channel' in options else 'client'))
    manager.relay_profiles[key] = {
        'uuid': str(uuid).lower(), 'role': role, 'channel': int(options.get('Channel', 0)),
        'authentication': bool(options.get('RequireAuthentication', False)),
    }
    _announce('RegisterProfile', [sender, path, str(uuid).lower(), role])


@dbus.service.method(PROFILE_MANAGER_IFACE, in_signature='o', out_signature='', sender_keyword='sender')
def UnregisterProfile(_manager_object, path, sender=None):
    manager = _manager()
    key = (str(sender), str(path))
    if key not in manager.relay_profiles:
        raise _error('org.bluez.Error.DoesNotExist', 'Does Not Exist')
    del manager.relay_profiles[key]
    _announce('UnregisterProfile', [sender, path])


# AgentManager1, remembering each agent's connection

@dbus.service.method(AGENT_MANAGER_IFACE, in_signature='os', out_signature='', sender_keyword='sender')
def RegisterAgent(_manager_object, path, capability, sender=None):
    manager = _manager()
    key = (str(sender), str(path))
    if key in manager.relay_agents:
        raise _error('org.bluez.Error.AlreadyExists', 'Already Exists')
    if capability not in ['DisplayOnly', 'DisplayYesNo', 'KeyboardOnly', 'NoInputNoOutput', 'KeyboardDisplay']:
        raise _error('org.bluez.Error.InvalidArguments', 'Unsupported capability ' + capability)
    manager.relay_agents[key] = str(capability)
    _announce('RegisterAgent', [sender, path, capability])


@dbus.service.method(AGENT_MANAGER_IFACE, in_signature='o', out_signature='', sender_keyword='sender')
def RequestDefaultAgent(_manager_object, path, sender=None):
    if (str(sender), str(path)) not in _manager().relay_agents:
        raise _error('org.bluez.Error.DoesNotExist', 'Does Not Exist')


@dbus.service.method(AGENT_MANAGER_IFACE, in_signature='o', out_signature='', sender_keyword='sender')
def UnregisterAgent(_manager_object, path, sender=None):
    manager = _manager()
    key = (str(sender), str(path))
    if key not in manager.relay_agents:
        raise _error('org.bluez.Error.DoesNotExist', 'Does Not Exist')
    del manager.relay_agents[key]
    _announce('UnregisterAgent', [sender, path])


# Device1

@dbus.service.method(DEVICE_IFACE, in_signature='', out_signature='', sender_keyword='sender',
                     path_keyword='path', async_callbacks=('ok', 'err'))
def Pair(_device_object, sender=None, path=None, ok=None, err=None):
    manager = _manager()
    device = mockobject.objects[path]
    if device.props[DEVICE_IFACE]['Paired']:
        err(_error('org.bluez.Error.AlreadyExists', 'Already Exists'))
        return
    agents = list(manager.relay_agents.keys())
    if not agents:
        err(_error('org.bluez.Error.AuthenticationFailed', 'No agent to confirm the passkey'))
        return
    passkey = manager.relay_passkey
    just_works = manager.relay_just_works
    if just_works:
        # No passkey to compare: only the remote side's agent is asked to authorize.
        agents = [agent for agent in agents if agent[0] != str(sender)]
    state = {'left': len(agents), 'done': False}
    connection = device.connection

    def finish(error):
        if state['done']:
            return
        state['done'] = True
        if error is not None:
            for (other_sender, other_path) in agents:
                connection.call_async(other_sender, other_path, AGENT_IFACE, 'Cancel', '', (), _ignore, _ignore)
            _announce('PairRejected', [path])
            err(_error('org.bluez.Error.AuthenticationRejected', 'Authentication Rejected'))
            return
        uuids = list(device.props[DEVICE_IFACE]['UUIDs'])
        _set_device(device, {
            'Paired': dbus.Boolean(True, variant_level=1),
            'UUIDs': dbus.Array(uuids, signature='s', variant_level=1),
        })
        _announce('Paired', [path])
        ok()

    def answered(_=None):
        state['left'] -= 1
        if state['left'] == 0:
            finish(None)

    for (agent_sender, agent_path) in agents:
        # The caller's agent confirms the device it pairs with; the others (the remote side's)
        # confirm the device that pairs with them.
        about = path if agent_sender == str(sender) else _other_device(path)
        if just_works:
            connection.call_async(
                agent_sender, agent_path, AGENT_IFACE, 'RequestAuthorization', 'o',
                (dbus.ObjectPath(about),), answered, finish, timeout=120)
        else:
            connection.call_async(
                agent_sender, agent_path, AGENT_IFACE, 'RequestConfirmation', 'ou',
                (dbus.ObjectPath(about), dbus.UInt32(passkey)), answered, finish, timeout=120)
    if not agents:
        finish(None)


@dbus.service.method(DEVICE_IFACE, in_signature='s', out_signature='', sender_keyword='sender',
                     path_keyword='path', async_callbacks=('ok', 'err'))
def ConnectProfile(_device_object, uuid, sender=None, path=None, ok=None, err=None):
    manager = _manager()
    device = mockobject.objects[path]
    uuid = str(uuid).lower()
    clients = [key for key, profile in manager.relay_profiles.items()
               if key[0] == str(sender) and profile['uuid'] == uuid and profile['role'] == 'client']
    servers = [key for key, profile in manager.relay_profiles.items()
               if key[0] != str(sender) and profile['uuid'] == uuid and profile['role'] == 'server']
    if not clients:
        err(_error('org.bluez.Error.InvalidArguments', 'No client profile registered for ' + uuid))
        return
    if not servers or not device.props[DEVICE_IFACE]['Paired']:
        err(_error('org.bluez.Error.NotAvailable', 'br-connection-profile-unavailable'))
        return
    if manager.relay_refuse_connections:
        err(_error('org.bluez.Error.Failed', 'br-connection-page-timeout'))
        return
    server_end, client_end = socket.socketpair()
    manager.relay_links.append((server_end, client_end, path))
    connection = device.connection

    def failed(error):
        err(_error('org.bluez.Error.Failed', 'NewConnection refused: ' + str(error)))

    def client_done(_=None):
        _set_device(device, {'Connected': dbus.Boolean(True, variant_level=1)})
        _announce('ProfileConnected', [path, uuid])
        ok()

    def server_done(_=None):
        connection.call_async(
            clients[0][0], clients[0][1], PROFILE_IFACE, 'NewConnection', 'oha{sv}',
            (dbus.ObjectPath(path), dbus.types.UnixFd(client_end.fileno()), dbus.Dictionary({}, signature='sv')),
            client_done, failed, timeout=30)

    connection.call_async(
        servers[0][0], servers[0][1], PROFILE_IFACE, 'NewConnection', 'oha{sv}',
        (dbus.ObjectPath(_other_device(path)), dbus.types.UnixFd(server_end.fileno()),
         dbus.Dictionary({}, signature='sv')),
        server_done, failed, timeout=30)


def _drop_links(device_path=None):
    manager = _manager()
    kept, dropped = [], 0
    for (server_end, client_end, path) in manager.relay_links:
        if device_path is not None and path != device_path:
            kept.append((server_end, client_end, path))
            continue
        # shutdown() acts on the socket, so every copy (the agents' too) sees the end.
        for end in (server_end, client_end):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()
        dropped += 1
        if path in mockobject.objects:
            _set_device(mockobject.objects[path], {'Connected': dbus.Boolean(False, variant_level=1)})
    manager.relay_links = kept
    return dropped


@dbus.service.method(DEVICE_IFACE, in_signature='s', out_signature='', path_keyword='path')
def DisconnectProfile(_device_object, _uuid, path=None):
    _drop_links(path)
    _announce('DisconnectProfile', [path])


# Adapter1: discovery reveals the hidden wearables

@dbus.service.method(ADAPTER_IFACE, in_signature='', out_signature='', path_keyword='path')
def StartDiscovery(_adapter_object, path=None):
    manager = _manager()
    adapter = mockobject.objects[path]
    bluez5.StartDiscovery(adapter)
    _announce('StartDiscovery', [path, manager.relay_filter])
    hidden, manager.relay_hidden = manager.relay_hidden, []
    for (adapter_name, address, alias) in hidden:
        _add_wearable(adapter_name, address, alias)


@dbus.service.method(ADAPTER_IFACE, in_signature='a{sv}', out_signature='', path_keyword='path')
def SetDiscoveryFilter(_adapter_object, discovery_filter, path=None):
    adapter = mockobject.objects[path]
    bluez5.SetDiscoveryFilter(adapter, discovery_filter)
    _manager().relay_filter = ','.join(str(u) for u in discovery_filter.get('UUIDs', []))


def _add_wearable(adapter_name, address, alias):
    root = mockobject.objects['/']
    device_path = AddDevice(root, adapter_name, address, alias)
    device = mockobject.objects[device_path]
    _set_device(device, {'UUIDs': dbus.Array([RELAY_UUID], signature='s', variant_level=1)})
    # The template's methods, with Relay's Pair, ConnectProfile and DisconnectProfile.
    device.methods[DEVICE_IFACE]['Pair'] = ('', '', '', Pair)
    device.methods[DEVICE_IFACE]['ConnectProfile'] = ('s', '', '', ConnectProfile)
    device.methods[DEVICE_IFACE]['DisconnectProfile'] = ('s', '', '', DisconnectProfile)
    return device_path


# org.bluez.Mock additions, for the tests

@dbus.service.method(MOCK_IFACE, in_signature='ss', out_signature='s')
def AddRelayAdapter(self, device_name, system_name):
    '''The template's AddAdapter, with discovery that reveals hidden wearables.'''
    adapter_path = AddAdapter(self, device_name, system_name)
    adapter = mockobject.objects[adapter_path]
    adapter.methods[ADAPTER_IFACE]['StartDiscovery'] = ('', '', '', StartDiscovery)
    adapter.methods[ADAPTER_IFACE]['SetDiscoveryFilter'] = ('a{sv}', '', '', SetDiscoveryFilter)
    return adapter_path


@dbus.service.method(MOCK_IFACE, in_signature='sss', out_signature='s')
def AddRelayWearable(_self, adapter_name, address, alias):
    '''A device offering Relay's service, known to bluetoothd at once.'''
    return _add_wearable(adapter_name, address, alias)


@dbus.service.method(MOCK_IFACE, in_signature='sss', out_signature='')
def AddHiddenWearable(_self, adapter_name, address, alias):
    '''A device offering Relay's service that appears only once discovery runs.'''
    _manager().relay_hidden.append((str(adapter_name), str(address), str(alias)))


@dbus.service.method(MOCK_IFACE, in_signature='ss', out_signature='s')
def AddPhone(_self, adapter_name, address):
    '''The phone as the wearable's bluetoothd knows it (the device of the wearable's NewConnection).'''
    root = mockobject.objects['/']
    return AddDevice(root, adapter_name, address, 'Relay phone')


@dbus.service.method(MOCK_IFACE, in_signature='u', out_signature='')
def SetPasskey(_self, passkey):
    _manager().relay_passkey = int(passkey)


@dbus.service.method(MOCK_IFACE, in_signature='b', out_signature='')
def SetJustWorks(_self, just_works):
    '''While set, Pair bonds "just works": no passkey, RequestAuthorization on the remote side's agent.'''
    _manager().relay_just_works = bool(just_works)


@dbus.service.method(MOCK_IFACE, in_signature='b', out_signature='')
def RefuseConnections(_self, refuse):
    '''While set, ConnectProfile fails as if the wearable were out of range.'''
    _manager().relay_refuse_connections = bool(refuse)


@dbus.service.method(MOCK_IFACE, in_signature='', out_signature='i')
def DropLinks(_self):
    '''Shuts every profile connection down, as a lost radio link would.'''
    count = _drop_links()
    _announce('DropLinks', [count])
    return count


@dbus.service.method(MOCK_IFACE, in_signature='', out_signature='a(ssss)')
def Profiles(_self):
    return [(sender, path, profile['uuid'], profile['role'])
            for (sender, path), profile in _manager().relay_profiles.items()]


def load(mock, parameters):
    bluez5.load(mock, parameters)
    manager = _manager()
    manager.relay_profiles = {}
    manager.relay_agents = {}
    manager.relay_links = []
    manager.relay_hidden = []
    manager.relay_filter = ''
    manager.relay_passkey = 123456
    manager.relay_just_works = False
    manager.relay_refuse_connections = False
    manager.methods[PROFILE_MANAGER_IFACE]['RegisterProfile'] = ('osa{sv}', '', '', RegisterProfile)
    manager.methods[PROFILE_MANAGER_IFACE]['UnregisterProfile'] = ('o', '', '', UnregisterProfile)
    manager.methods[AGENT_MANAGER_IFACE]['RegisterAgent'] = ('os', '', '', RegisterAgent)
    manager.methods[AGENT_MANAGER_IFACE]['RequestDefaultAgent'] = ('o', '', '', RequestDefaultAgent)
    manager.methods[AGENT_MANAGER_IFACE]['UnregisterAgent'] = ('o', '', '', UnregisterAgent)
